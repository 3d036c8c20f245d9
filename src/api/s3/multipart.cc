// Multipart uploads for regular tables: Create, UploadPart, Complete, Abort,
// ListParts. Parts are staged under <key_root>s3-multipart-uploads/<bucket>/
// <upload id>/ (a name no warehouse bucket can take, so listings never show
// them) and concatenated into the object, streaming, on Complete.
#include <cstdio>

#include "api/s3/object_etag_internal.h"
#include "api/s3/object_headers_internal.h"
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "api/s3/xml_text_internal.h"
#include "common/utc_time.h"

namespace st::api::s3 {

namespace {

constexpr std::string_view kUploadsRoot = "s3-multipart-uploads/";
constexpr int kMaxPartNumber = 10000;
constexpr int64_t kMinPartBytes = 5 * 1024 * 1024;
constexpr size_t kCopyChunkBytes = 1 << 20;

std::string UploadDir(const S3State& state, const std::string& bucket,
                      const std::string& upload_id) {
  return state.key_root + std::string(kUploadsRoot) + bucket + "/" + upload_id + "/";
}

std::string PartName(int part_number) {
  char name[16];
  std::snprintf(name, sizeof name, "part-%05d", part_number);
  return name;
}

bool IsUploadId(std::string_view id) {
  if (id.size() != 32) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

struct OpenUpload {
  ObjectAddress address;
  std::string upload_id;
  std::string dir;
};

// The upload named by ?uploadId= for this key, or the error response.
tl::expected<OpenUpload, http::HttpError> FindUpload(const S3State& state,
                                                     http::RouteContext& context,
                                                     std::string_view operation) {
  Result<ObjectAddress> address = AddressOf(state, context.request);
  if (!address.has_value()) return tl::unexpected(http::HttpError(address.error()));
  if (address->key.empty()) return tl::unexpected(BadRequest("InvalidRequest", "No key given."));
  Status writable = CheckBucketWritable(state, *address, operation);
  if (!writable.ok()) return tl::unexpected(http::HttpError(writable));
  std::string upload_id(context.request.query().Get("uploadId").value_or(""));
  if (!IsUploadId(upload_id)) return tl::unexpected(NoSuchUpload(upload_id));
  OpenUpload upload{*address, upload_id, UploadDir(state, address->bucket, upload_id)};
  Result<std::string> key = state.objects.Get(upload.dir + "upload");
  if (!key.has_value() || *key != address->key) return tl::unexpected(NoSuchUpload(upload_id));
  return upload;
}

struct StagedPart {
  int number = 0;
  storage::ObjectInfo info;
};

// Staged parts in part-number order.
Result<std::vector<StagedPart>> StagedParts(const S3State& state, const OpenUpload& upload) {
  ST_ASSIGN_OR_RETURN(std::vector<storage::ObjectInfo> objects,
                      state.objects.List(upload.dir + "part-"));
  std::vector<StagedPart> parts;
  for (storage::ObjectInfo& info : objects) {
    int number = std::atoi(info.key.substr(upload.dir.size() + 5).c_str());
    parts.push_back({number, std::move(info)});
  }
  return parts;
}

// Streams the part into `sink` (when given) and returns its raw MD5.
Result<std::string> DigestPart(const S3State& state, const std::string& key,
                               storage::ObjectWriter* sink) {
  ST_ASSIGN_OR_RETURN(std::unique_ptr<storage::ObjectReader> reader, state.objects.OpenReader(key));
  Md5 md5;
  std::string buffer(kCopyChunkBytes, '\0');
  int64_t offset = 0;
  while (true) {
    ST_ASSIGN_OR_RETURN(size_t got, reader->ReadAt(offset, buffer.data(), buffer.size()));
    if (got == 0) break;
    md5.Update(std::string_view(buffer.data(), got));
    if (sink != nullptr) ST_TRY(sink->Write(buffer.data(), got));
    offset += static_cast<int64_t>(got);
  }
  return md5.Finish();
}

Status RemoveUpload(const S3State& state, const OpenUpload& upload) {
  ST_ASSIGN_OR_RETURN(std::vector<storage::ObjectInfo> objects, state.objects.List(upload.dir));
  for (const storage::ObjectInfo& info : objects) {
    if (info.key != upload.dir + "upload") ST_TRY(state.objects.Delete(info.key));
  }
  // The record goes last, so a failed cleanup leaves an abortable upload.
  return state.objects.Delete(upload.dir + "upload");
}

std::string ResultHeader(std::string_view root) {
  std::string xml = kXmlDeclaration;
  xml += "<";
  xml += root;
  xml += " xmlns=\"";
  xml += kS3Namespace;
  xml += "\">";
  return xml;
}

}  // namespace

Result<http::Response> CreateMultipartUpload(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (address.key.empty()) return context.Fail(BadRequest("InvalidRequest", "No key given."));
  ST_TRY(CheckBucketWritable(state, address, "write objects (CreateMultipartUpload) to"));
  char id[33];
  std::snprintf(id, sizeof id, "%016llx%016llx",
                static_cast<unsigned long long>(state.random.Next64()),
                static_cast<unsigned long long>(state.random.Next64()));
  std::string upload_id = id;
  ST_TRY(state.objects.Put(UploadDir(state, address.bucket, upload_id) + "upload", address.key));
  std::string xml = ResultHeader("InitiateMultipartUploadResult");
  AppendElement(xml, "Bucket", address.bucket);
  AppendElement(xml, "Key", address.key);
  AppendElement(xml, "UploadId", upload_id);
  xml += "</InitiateMultipartUploadResult>";
  return http::Response::Xml(200, std::move(xml));
}

Result<http::Response> UploadPart(const S3State& state, http::RouteContext& context) {
  auto upload = FindUpload(state, context, "write objects (UploadPart) to");
  if (!upload.has_value()) return context.Fail(upload.error());
  if (context.request.headers.Has("x-amz-copy-source")) {
    return context.Fail(NotImplemented("UploadPartCopy is not supported; upload the bytes."));
  }
  std::string_view number_text = context.request.query().Get("partNumber").value_or("");
  int number = 0;
  bool ok = !number_text.empty() && number_text.size() <= 5;
  for (char c : number_text) ok = ok && c >= '0' && c <= '9';
  if (ok) number = std::atoi(std::string(number_text).c_str());
  if (!ok || number < 1 || number > kMaxPartNumber) {
    return context.Fail(
        BadRequest("InvalidArgument", "Part number must be an integer between 1 and 10000."));
  }
  auto payload = UploadPayload(state, context.request);
  if (!payload.has_value()) return context.Fail(payload.error());
  ST_TRY(state.objects.Put(upload->dir + PartName(number), *payload));
  http::Response response = http::Response::Empty(200);
  response.headers.Set("ETag", "\"" + HexLower(Md5Raw(*payload)) + "\"");
  return response;
}

Result<http::Response> CompleteMultipartUpload(const S3State& state, http::RouteContext& context) {
  auto upload = FindUpload(state, context, "write objects (CompleteMultipartUpload) to");
  if (!upload.has_value()) return context.Fail(upload.error());
  std::vector<std::string_view> part_bodies = ElementBodies(context.request.body, "Part");
  if (ElementBodies(context.request.body, "CompleteMultipartUpload").empty() ||
      part_bodies.empty()) {
    return context.Fail(BadRequest("MalformedXML",
                                   "The XML you provided was not well-formed or "
                                   "did not validate against our published "
                                   "schema: no <Part> given."));
  }
  struct Wanted {
    int number;
    std::string etag;
  };
  std::vector<Wanted> wanted;
  for (std::string_view body : part_bodies) {
    std::optional<std::string> number = ElementText(body, "PartNumber");
    std::optional<std::string> etag = ElementText(body, "ETag");
    if (!number.has_value() || !etag.has_value()) {
      return context.Fail(BadRequest("MalformedXML", "Each <Part> needs <PartNumber> and <ETag>."));
    }
    int n = std::atoi(number->c_str());
    if (!wanted.empty() && n <= wanted.back().number) {
      return context.Fail(BadRequest("InvalidPartOrder",
                                     "The list of parts was not in ascending order. Parts must "
                                     "be ordered by part number."));
    }
    std::string unquoted = *etag;
    if (unquoted.size() >= 2 && unquoted.front() == '"' && unquoted.back() == '"') {
      unquoted = unquoted.substr(1, unquoted.size() - 2);
    }
    wanted.push_back({n, unquoted});
  }
  ST_ASSIGN_OR_RETURN(std::vector<StagedPart> staged, StagedParts(state, *upload));
  auto find = [&](int number) -> const StagedPart* {
    for (const StagedPart& part : staged) {
      if (part.number == number) return &part;
    }
    return nullptr;
  };
  for (size_t i = 0; i < wanted.size(); ++i) {
    const StagedPart* part = find(wanted[i].number);
    if (part == nullptr) {
      return context.Fail(BadRequest(
          "InvalidPart", "Part " + std::to_string(wanted[i].number) + " was not uploaded."));
    }
    if (i + 1 < wanted.size() && part->info.size_bytes < kMinPartBytes) {
      return context.Fail(
          BadRequest("EntityTooSmall", "Part " + std::to_string(wanted[i].number) +
                                           " is smaller than the minimum allowed size of 5 MiB."));
    }
  }

  std::string store_key = StoreKey(state, upload->address.bucket, upload->address.key);
  ST_ASSIGN_OR_RETURN(std::unique_ptr<storage::ObjectWriter> writer,
                      state.objects.NewWriter(store_key));
  std::string digests;
  for (const Wanted& part : wanted) {
    ST_ASSIGN_OR_RETURN(std::string md5,
                        DigestPart(state, upload->dir + PartName(part.number), writer.get()));
    if (HexLower(md5) != part.etag) {
      return context.Fail(BadRequest("InvalidPart", "The ETag given for part " +
                                                        std::to_string(part.number) +
                                                        " does not match the uploaded part."));
    }
    digests += md5;
  }
  ST_TRY(writer->Commit());
  std::string etag = HexLower(Md5Raw(digests)) + "-" + std::to_string(wanted.size());
  std::string relative = upload->address.bucket + "/" + upload->address.key;
  RecordEtag(state.objects, state.key_root, relative, store_key, etag);
  (void)RemoveUpload(state, *upload);

  std::string xml = ResultHeader("CompleteMultipartUploadResult");
  AppendElement(xml, "Location", "/" + relative);
  AppendElement(xml, "Bucket", upload->address.bucket);
  AppendElement(xml, "Key", upload->address.key);
  AppendElement(xml, "ETag", "\"" + etag + "\"");
  xml += "</CompleteMultipartUploadResult>";
  return http::Response::Xml(200, std::move(xml));
}

Result<http::Response> AbortMultipartUpload(const S3State& state, http::RouteContext& context) {
  auto upload = FindUpload(state, context, "write objects (AbortMultipartUpload) to");
  if (!upload.has_value()) return context.Fail(upload.error());
  ST_TRY(RemoveUpload(state, *upload));
  return http::Response::Empty(204);
}

Result<http::Response> ListParts(const S3State& state, http::RouteContext& context) {
  Result<ObjectAddress> address = AddressOf(state, context.request);
  ST_TRY(address);
  ST_TRY(CheckBucketExists(state, address->bucket));
  std::string upload_id(context.request.query().Get("uploadId").value_or(""));
  OpenUpload upload{*address, upload_id, UploadDir(state, address->bucket, upload_id)};
  Result<std::string> key =
      IsUploadId(upload_id) ? state.objects.Get(upload.dir + "upload") : Result<std::string>("");
  if (!key.has_value() || *key != address->key || address->key.empty()) {
    return context.Fail(NoSuchUpload(upload_id));
  }
  ST_ASSIGN_OR_RETURN(std::vector<StagedPart> staged, StagedParts(state, upload));
  std::string xml = ResultHeader("ListPartsResult");
  AppendElement(xml, "Bucket", address->bucket);
  AppendElement(xml, "Key", address->key);
  AppendElement(xml, "UploadId", upload_id);
  AppendElement(xml, "PartNumberMarker", "0");
  AppendElement(xml, "NextPartNumberMarker",
                std::to_string(staged.empty() ? 0 : staged.back().number));
  AppendElement(xml, "MaxParts", std::to_string(kMaxPartNumber));
  AppendElement(xml, "IsTruncated", "false");
  for (const StagedPart& part : staged) {
    ST_ASSIGN_OR_RETURN(std::string md5, DigestPart(state, part.info.key, nullptr));
    xml += "<Part>";
    AppendElement(xml, "PartNumber", std::to_string(part.number));
    AppendElement(xml, "LastModified", FormatUtcMillis(part.info.last_modified));
    AppendElement(xml, "ETag", "\"" + HexLower(md5) + "\"");
    AppendElement(xml, "Size", std::to_string(part.info.size_bytes));
    xml += "</Part>";
  }
  xml += "</ListPartsResult>";
  return http::Response::Xml(200, std::move(xml));
}

void DiscardBucketUploads(const S3State& state, const std::string& bucket) {
  std::string root = state.key_root + std::string(kUploadsRoot) + bucket + "/";
  Result<std::vector<storage::ObjectInfo>> staged = state.objects.List(root);
  if (!staged.has_value()) return;
  for (const storage::ObjectInfo& info : *staged) (void)state.objects.Delete(info.key);
}

}  // namespace st::api::s3
