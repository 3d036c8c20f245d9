#include "cli/write_table_command.h"

#include <filesystem>
#include <fstream>
#include <ostream>

#include "cli/builtin_tables.h"
#include "cli/partition_expression.h"
#include "cli/row_json.h"

namespace st::cli {

uint64_t RowSeed(uint64_t seed, int64_t index) {
  RowRandom mix(seed ^ (static_cast<uint64_t>(index) * 0xD1B54A32D192ED03ULL));
  return mix.Next();
}

Result<std::string> RunWriteTable(const WriteTableOptions& options, std::ostream& log) {
  ST_ASSIGN_OR_RETURN(BuiltinTable table, MakeBuiltinTable(options.schema));
  ST_ASSIGN_OR_RETURN(auto partition_fields,
                      ParsePartitionExpression(table.schema, options.partition_by));
  std::ofstream dump;
  if (!options.dump_rows.empty()) {
    dump.open(options.dump_rows, std::ios::binary | std::ios::trunc);
    if (!dump) {
      return Err(
          InvalidArgument("--dump-rows: cannot open '" + options.dump_rows + "' for writing"));
    }
  }
  int64_t first_index = 0;
  for (int c = 0; c < options.commits; ++c) {
    for (int64_t i = 0; i < options.rows; ++i) {
      int64_t index = first_index + c * options.rows + i;
      RowRandom random(RowSeed(options.seed, index));
      Value row = table.make_row(random, index);
      if (dump.is_open()) {
        ST_ASSIGN_OR_RETURN(std::string line, RowToJsonLine(table.schema, row));
        dump << line << '\n';
      }
    }
    log << "commit " << c + 1 << "/" << options.commits << ": " << options.rows << " rows\n";
  }
  if (dump.is_open() && !dump.flush()) {
    return Err(IoError("--dump-rows: writing '" + options.dump_rows + "' failed"));
  }
  return Err(Unsupported("writing tables needs the data-file writer (not wired yet)"));
}

}  // namespace st::cli
