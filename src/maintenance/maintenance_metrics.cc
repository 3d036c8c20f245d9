#include "maintenance/maintenance_metrics.h"

#include <cstdio>

namespace st::maintenance {

namespace {

// Table ARNs hold no quote, backslash or newline, but escape as the format asks.
std::string Label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string Number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.6f", value);
  return buffer;
}

}  // namespace

void MaintenanceMetrics::RecordRun(const std::string& table_arn, catalog::MaintenanceJob job,
                                   const JobRunSample& sample) {
  common::MutexLock lock(mu_);
  JobCounters& counters = jobs_[{table_arn, job}];
  ++counters.runs;
  if (sample.failed) ++counters.failures;
  counters.files_removed += sample.files_removed;
  counters.bytes_removed += sample.bytes_removed;
  counters.files_rewritten += sample.files_rewritten;
  counters.bytes_read += sample.bytes_read;
  counters.bytes_written += sample.bytes_written;
  counters.duration_seconds += sample.duration_seconds;
}

void MaintenanceMetrics::RecordShape(const std::string& table_arn, const TableShapeSample& sample) {
  common::MutexLock lock(mu_);
  TableShapeSample& shape = shapes_[table_arn];
  if (sample.live_data_files >= 0) shape.live_data_files = sample.live_data_files;
  if (sample.snapshots >= 0) shape.snapshots = sample.snapshots;
  if (sample.metadata_file_bytes >= 0) shape.metadata_file_bytes = sample.metadata_file_bytes;
}

std::string MaintenanceMetrics::Text() const {
  // A copy, so formatting happens without the lock.
  std::map<std::pair<std::string, catalog::MaintenanceJob>, JobCounters> jobs;
  std::map<std::string, TableShapeSample> shapes;
  {
    common::MutexLock lock(mu_);
    jobs = jobs_;
    shapes = shapes_;
  }
  std::string out;
  auto job_family = [&](const char* name, const char* type, const char* help, auto value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    for (const auto& [key, counters] : jobs) {
      out += std::string(name) + "{table=\"" + Label(key.first) + "\",job=\"" +
             std::string(catalog::MaintenanceJobName(key.second)) + "\"} " + value(counters) + "\n";
    }
  };
  job_family("streamtables_maintenance_job_runs_total", "counter", "Maintenance job runs.",
             [](const JobCounters& c) { return std::to_string(c.runs); });
  job_family("streamtables_maintenance_job_failures_total", "counter",
             "Maintenance job runs that failed.",
             [](const JobCounters& c) { return std::to_string(c.failures); });
  job_family("streamtables_maintenance_files_removed_total", "counter",
             "Files deleted by maintenance jobs.",
             [](const JobCounters& c) { return std::to_string(c.files_removed); });
  job_family("streamtables_maintenance_bytes_removed_total", "counter",
             "Bytes of the files deleted by maintenance jobs.",
             [](const JobCounters& c) { return std::to_string(c.bytes_removed); });
  job_family("streamtables_maintenance_files_rewritten_total", "counter",
             "Data files replaced by compaction.",
             [](const JobCounters& c) { return std::to_string(c.files_rewritten); });
  job_family("streamtables_maintenance_bytes_read_total", "counter",
             "Bytes of data files read by compaction.",
             [](const JobCounters& c) { return std::to_string(c.bytes_read); });
  job_family("streamtables_maintenance_bytes_written_total", "counter",
             "Bytes of data files written by compaction.",
             [](const JobCounters& c) { return std::to_string(c.bytes_written); });
  job_family("streamtables_maintenance_job_duration_seconds_total", "counter",
             "Time spent in maintenance jobs.",
             [](const JobCounters& c) { return Number(c.duration_seconds); });
  auto shape_family = [&](const char* name, const char* help, auto value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n";
    for (const auto& [table, shape] : shapes) {
      int64_t v = value(shape);
      if (v < 0) continue;
      out += std::string(name) + "{table=\"" + Label(table) + "\"} " + std::to_string(v) + "\n";
    }
  };
  shape_family("streamtables_table_live_data_files",
               "Data files of the current snapshot, as maintenance last saw it.",
               [](const TableShapeSample& s) { return s.live_data_files; });
  shape_family("streamtables_table_snapshots", "Snapshots in the current metadata.",
               [](const TableShapeSample& s) { return s.snapshots; });
  shape_family("streamtables_table_metadata_file_bytes", "Size of the current metadata file.",
               [](const TableShapeSample& s) { return s.metadata_file_bytes; });
  return out;
}

}  // namespace st::maintenance
