// S3 error codes this surface sends beyond what a StatusCode implies
// (docs/api-contract-notes.md §4.3), and the surface's ErrorWriter.
#pragma once

#include <cstdint>
#include <string>

#include "http/error_shapes.h"
#include "http/http_error.h"

namespace st::api::s3 {

// The S3 XML writer, except that a NotFound made by NoSuchBucketStatus goes
// out as 404 NoSuchBucket with <BucketName> (access resolvers can only
// return a Status, and a missing bucket is found there first).
class S3SurfaceErrorWriter final : public http::ErrorWriter {
 public:
  http::Response Write(const http::Request& request, const http::HttpError& error) const override;

 private:
  http::S3ErrorWriter base_;
};

Status NoSuchBucketStatus(const std::string& bucket);
// InvalidArgument that the writer sends as 400 InvalidBucketName (for
// access resolvers, which can only return a Status).
Status InvalidBucketNameStatus(const std::string& bucket, const std::string& why);

http::HttpError NoSuchBucket(const std::string& bucket);
http::HttpError NoSuchKey(const std::string& key);
http::HttpError NoSuchUpload(const std::string& upload_id);
// 416 with <RangeRequested> and <ActualObjectSize>.
http::HttpError InvalidRange(const std::string& range, int64_t object_size);
http::HttpError PreconditionFailed(const std::string& condition);
// 400 codes: InvalidPart, InvalidPartOrder, EntityTooSmall, BadDigest,
// MalformedXML, InvalidArgument, IncompleteBody.
http::HttpError BadRequest(const std::string& code, const std::string& message);
// 400 InvalidBucketName naming the rule broken.
http::HttpError InvalidBucketName(const std::string& bucket, const std::string& why);
// 409 BucketAlreadyExists (another account owns it) / BucketAlreadyOwnedByYou.
http::HttpError BucketAlreadyExists(const std::string& bucket);
http::HttpError BucketAlreadyOwnedByYou(const std::string& bucket);
// 409 BucketNotEmpty.
http::HttpError BucketNotEmpty(const std::string& bucket);
// 403 AccessDenied.
http::HttpError AccessDenied(const std::string& message);
// 501 NotImplemented.
http::HttpError NotImplemented(const std::string& message);

}  // namespace st::api::s3
