// PutObject and DeleteObject for regular tables (streaming tables refuse
// both), and the upload-body decoding UploadPart shares.
#include "api/s3/aws_chunked_internal.h"
#include "api/s3/object_etag_internal.h"
#include "api/s3/object_headers_internal.h"
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "common/base64.h"

namespace st::api::s3 {

namespace {

auth::HttpRequestView ViewOf(const http::Request& request) {
  auth::HttpRequestView view;
  view.method = request.method;
  view.raw_path = request.raw_path();
  view.raw_query = request.raw_query();
  for (const auto& [name, value] : request.headers.fields()) view.headers.emplace_back(name, value);
  return view;
}

tl::expected<std::string, http::HttpError> Decode(const S3State& state,
                                                  const http::Request& request) {
  UploadFraming framing = FramingOf(request);
  if (framing == UploadFraming::kPlain) return request.body;
  std::optional<ChunkSigning> signing;
  if (framing == UploadFraming::kChunkedSigned && state.chunk_verifier != nullptr) {
    // The router authenticated the request already; verifying again yields
    // the signing key and seed signature the chunk chain starts from.
    Result<auth::VerifiedRequest> verified = state.chunk_verifier->Verify(ViewOf(request));
    if (!verified.has_value()) return tl::unexpected(http::HttpError(verified.error()));
    signing = ChunkSigning{verified->signing_key, verified->amz_date, verified->scope,
                           verified->seed_signature};
  }
  Result<std::string> decoded =
      DecodeAwsChunked(request.body, signing.has_value() ? &*signing : nullptr);
  if (!decoded.has_value()) {
    if (decoded.error().code() == StatusCode::kUnauthenticated) {
      return tl::unexpected(http::HttpError(decoded.error(), 403, "SignatureDoesNotMatch"));
    }
    return tl::unexpected(BadRequest("InvalidArgument", decoded.error().message()));
  }
  return std::move(decoded).value();
}

}  // namespace

tl::expected<std::string, http::HttpError> UploadPayload(const S3State& state,
                                                         const http::Request& request) {
  auto payload = Decode(state, request);
  if (!payload.has_value()) return payload;
  if (auto declared = request.headers.Get("x-amz-decoded-content-length")) {
    if (*declared != std::to_string(payload->size())) {
      return tl::unexpected(
          BadRequest("IncompleteBody", "The decoded body has " + std::to_string(payload->size()) +
                                           " bytes, but x-amz-decoded-content-length says " +
                                           std::string(*declared) + "."));
    }
  }
  if (auto content_md5 = request.headers.Get("Content-MD5")) {
    if (*content_md5 != common::Base64Encode(Md5Raw(*payload))) {
      return tl::unexpected(
          BadRequest("BadDigest", "The Content-MD5 you specified did not match what we received."));
    }
  }
  return payload;
}

Result<http::Response> PutObject(const S3State& state, http::RouteContext& context) {
  const http::Request& request = context.request;
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, request));
  if (address.key.empty()) {
    return context.Fail(NotImplemented(
        "Bucket operations are not supported: warehouse buckets belong to their tables."));
  }
  ST_TRY(CheckBucketWritable(state, address, "write objects (PutObject) to"));
  if (request.headers.Has("x-amz-copy-source")) {
    return context.Fail(NotImplemented("CopyObject is not supported; upload the bytes instead."));
  }
  auto payload = UploadPayload(state, request);
  if (!payload.has_value()) return context.Fail(payload.error());
  std::string store_key = StoreKey(state, address.bucket, address.key);
  std::string relative = address.bucket + "/" + address.key;
  bool if_absent = request.headers.Get("If-None-Match") == std::optional<std::string_view>("*");
  Status written = if_absent ? state.objects.PutIfAbsent(store_key, *payload)
                             : state.objects.Put(store_key, *payload);
  if (written.code() == StatusCode::kAlreadyExists) {
    return context.Fail(PreconditionFailed("If-None-Match"));
  }
  if (!written.ok()) return context.Fail(KmsAwareError(written));
  std::string etag = HexLower(Md5Raw(*payload));
  RecordEtag(state.objects, state.key_root, relative, store_key, etag);
  http::Response response = http::Response::Empty(200);
  response.headers.Set("ETag", "\"" + etag + "\"");
  if (Result<storage::ObjectInfo> stored = state.objects.Head(store_key); stored.has_value()) {
    SetEncryptionHeaders(*stored, response);
  }
  return response;
}

Result<http::Response> DeleteObject(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (address.key.empty()) {
    return context.Fail(NotImplemented(
        "DeleteBucket is not supported: delete the table through S3 Tables instead."));
  }
  ST_TRY(CheckBucketWritable(state, address, "delete objects (DeleteObject) of"));
  ST_TRY(state.objects.Delete(StoreKey(state, address.bucket, address.key)));
  ForgetEtag(state.objects, state.key_root, address.bucket + "/" + address.key);
  return http::Response::Empty(204);
}

}  // namespace st::api::s3
