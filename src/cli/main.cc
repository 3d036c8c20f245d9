// The `streamtables` command line. CLI11 exceptions stay inside this file.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/parquet_cat_command.h"
#include "cli/service_commands.h"
#include "cli/write_table_command.h"
#include "server/run_server.h"

namespace {

void AddWriteTable(CLI::App& dev, st::cli::WriteTableOptions& o, bool& selected) {
  CLI::App* cmd = dev.add_subcommand(
      "write-table", "Write a built-in test table (K appends of N deterministic rows)");
  cmd->add_option("--warehouse", o.warehouse, "Local warehouse directory")->required();
  cmd->add_option("--namespace", o.namespace_name, "Namespace directory")->capture_default_str();
  cmd->add_option("--table", o.table, "Table directory")->capture_default_str();
  cmd->add_option("--schema", o.schema, "all-types | nested | clickstream")
      ->capture_default_str()
      ->check(CLI::IsMember({"all-types", "nested", "clickstream"}));
  cmd->add_option("--partition-by", o.partition_by,
                  "Transforms, comma-separated: day(ts), hour(ts), bucket(16, id), "
                  "truncate(4, s), identity(col) or col; default unpartitioned");
  cmd->add_option("--rows", o.rows, "Rows per commit")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed", o.seed, "Row generator seed")->capture_default_str();
  cmd->add_option("--commits", o.commits, "Number of appends")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--codec", o.codec, "Parquet codec (default: the table's, else zstd)")
      ->check(CLI::IsMember({"zstd", "snappy", "gzip", "uncompressed"}));
  cmd->add_option("--row-group-bytes", o.row_group_bytes, "Parquet row group size")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--page-bytes", o.page_bytes, "Parquet page size")->check(CLI::PositiveNumber);
  cmd->add_option("--target-file-bytes", o.target_file_bytes,
                  "Roll data files at this size (write.target-file-size-bytes)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--dump-rows", o.dump_rows, "Write this run's rows as JSON lines to FILE");
  cmd->callback([&selected] { selected = true; });
}

void AddParquetCat(CLI::App& dev, st::cli::ParquetCatOptions& o, bool& selected) {
  CLI::App* cmd = dev.add_subcommand(
      "parquet-cat", "Read a Parquet file with our reader; print rows as JSON lines");
  cmd->add_option("file", o.file, "Parquet file")->required();
  cmd->add_flag("--metadata", o.metadata, "Print the footer (schema, row groups, stats) instead");
  cmd->add_flag("--decode-only", o.decode_only,
                "Decode every column without printing; print the seconds per run");
  cmd->add_option("--threads", o.threads, "--decode-only: decoding threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeat", o.repeat, "--decode-only: runs")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->callback([&selected] { selected = true; });
}

}  // namespace

int main(int argc, char** argv) {
  // The server parses its own flags (server_config.h).
  if (argc >= 2 && std::string_view(argv[1]) == "server") {
    return st::server::RunServer(argc - 1, argv + 1);
  }
  CLI::App app("streamtables: Kafka topics to Apache Iceberg tables");
  app.require_subcommand(1);
  app.add_subcommand("server", "Run the table-bucket service (streamtables server --help)");
  auto service_commands = st::cli::AddServiceCommands(app);
  CLI::App* dev = app.add_subcommand("dev", "Developer and test tools");
  dev->require_subcommand(1);
  st::cli::WriteTableOptions write_table;
  bool write_table_selected = false;
  AddWriteTable(*dev, write_table, write_table_selected);
  st::cli::ParquetCatOptions parquet_cat;
  bool parquet_cat_selected = false;
  AddParquetCat(*dev, parquet_cat, parquet_cat_selected);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  if (auto code = st::cli::RunServiceCommand(*service_commands, std::cout, std::cerr)) return *code;
  if (write_table_selected) {
    auto location = st::cli::RunWriteTable(write_table, std::cerr);
    if (!location) {
      std::cerr << "streamtables dev write-table: " << location.error().ToString() << "\n";
      return 1;
    }
    std::cout << *location << std::endl;
    return 0;
  }
  if (parquet_cat_selected) {
    st::Status s = st::cli::RunParquetCat(parquet_cat, std::cout);
    std::cout.flush();
    if (!s.ok()) {
      std::cerr << "streamtables dev parquet-cat: " << s.ToString() << "\n";
      return 1;
    }
    return 0;
  }
  return 2;
}
