#include "iceberg/manifest_list.h"

#include "avro/container.h"
#include "iceberg/manifest_avro_internal.h"
#include "iceberg/manifest_metadata_internal.h"

namespace st::iceberg {

Result<std::string> EncodeManifestList(const ManifestListInfo& info,
                                       const std::vector<ManifestFile>& manifests, Random* random) {
  MemoryOutputStream out;
  avro::ContainerWriterOptions options;
  options.random = random;
  options.metadata = internal::ManifestListMetadata(info.snapshot_id, info.parent_snapshot_id,
                                                    info.sequence_number);
  ST_ASSIGN_OR_RETURN(auto writer, avro::ContainerWriter::Make(internal::ManifestFileAvroSchema(),
                                                               std::move(options), &out));
  for (const ManifestFile& manifest : manifests) {
    ST_TRY(writer->Append(internal::ManifestFileToAvro(manifest)));
  }
  ST_TRY(writer->Close());
  return out.Release();
}

Status WriteManifestList(FileIO& io, const std::string& path, const ManifestListInfo& info,
                         const std::vector<ManifestFile>& manifests, Random* random) {
  ST_ASSIGN_OR_RETURN(std::string bytes, EncodeManifestList(info, manifests, random));
  return io.WriteIfAbsent(path, bytes);
}

Result<std::vector<ManifestFile>> ParseManifestList(std::string_view bytes,
                                                    const std::string& what) {
  auto reader = avro::ContainerReader::Open(bytes);
  if (!reader.has_value()) return Err(Corruption(what + ": " + reader.error().message()));
  internal::RecordLayout layout((*reader)->schema().root());
  std::vector<ManifestFile> out;
  Value record;
  while (true) {
    auto more = (*reader)->Next(&record);
    if (!more.has_value()) return Err(Corruption(what + ": " + more.error().message()));
    if (!*more) break;
    ST_ASSIGN_OR_RETURN(ManifestFile manifest,
                        internal::ManifestFileFromAvro(layout, record, what));
    out.push_back(std::move(manifest));
  }
  return out;
}

Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const std::string& path) {
  ST_ASSIGN_OR_RETURN(std::string bytes, io.Read(path));
  return ParseManifestList(bytes, "manifest list " + path);
}

}  // namespace st::iceberg
