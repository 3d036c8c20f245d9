// The one place this surface chooses S3 error codes.
#include "api/s3/s3_errors_internal.h"

namespace st::api::s3 {

namespace {

constexpr std::string_view kNoSuchBucketMessage = "The specified bucket does not exist: ";
constexpr std::string_view kInvalidBucketNameMessage = "The specified bucket is not valid: ";

}  // namespace

http::Response S3SurfaceErrorWriter::Write(const http::Request& request,
                                           const http::HttpError& error) const {
  const std::string& message = error.status.message();
  if (error.status.code() == StatusCode::kNotFound && error.wire_code.empty() &&
      message.rfind(kNoSuchBucketMessage, 0) == 0) {
    return base_.Write(request, NoSuchBucket(message.substr(kNoSuchBucketMessage.size())));
  }
  if (error.status.code() == StatusCode::kInvalidArgument && error.wire_code.empty() &&
      message.rfind(kInvalidBucketNameMessage, 0) == 0) {
    return base_.Write(request, http::HttpError(error.status, 400, "InvalidBucketName"));
  }
  return base_.Write(request, error);
}

Status NoSuchBucketStatus(const std::string& bucket) {
  return NotFound(std::string(kNoSuchBucketMessage) + bucket);
}

Status InvalidBucketNameStatus(const std::string& bucket, const std::string& why) {
  return InvalidArgument(std::string(kInvalidBucketNameMessage) + "'" + bucket + "': " + why);
}

http::HttpError InvalidBucketName(const std::string& bucket, const std::string& why) {
  http::HttpError error(InvalidBucketNameStatus(bucket, why), 400, "InvalidBucketName");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

http::HttpError BucketAlreadyExists(const std::string& bucket) {
  http::HttpError error(AlreadyExists("The requested bucket name is not available. The bucket "
                                      "namespace is shared by all users of the system. Please "
                                      "select a different name and try again."),
                        409, "BucketAlreadyExists");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

http::HttpError BucketAlreadyOwnedByYou(const std::string& bucket) {
  http::HttpError error(AlreadyExists("Your previous request to create the named bucket "
                                      "succeeded and you already own it."),
                        409, "BucketAlreadyOwnedByYou");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

http::HttpError BucketNotEmpty(const std::string& bucket) {
  http::HttpError error(FailedPrecondition("The bucket you tried to delete is not empty; delete "
                                           "its objects first."),
                        409, "BucketNotEmpty");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

http::HttpError AccessDenied(const std::string& message) {
  return http::HttpError(Status(StatusCode::kAccessDenied, message), 403, "AccessDenied");
}

http::HttpError NoSuchBucket(const std::string& bucket) {
  http::HttpError error(NotFound("The specified bucket does not exist."), 404, "NoSuchBucket");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

http::HttpError NoSuchKey(const std::string& key) {
  http::HttpError error(NotFound("The specified key does not exist."), 404, "NoSuchKey");
  error.details.emplace_back("Key", key);
  return error;
}

http::HttpError NoSuchUpload(const std::string& upload_id) {
  http::HttpError error(NotFound("The specified upload does not exist. The upload ID may be "
                                 "invalid, or the upload may have been aborted or completed."),
                        404, "NoSuchUpload");
  error.details.emplace_back("UploadId", upload_id);
  return error;
}

http::HttpError InvalidRange(const std::string& range, int64_t object_size) {
  http::HttpError error(InvalidArgument("The requested range is not satisfiable"), 416,
                        "InvalidRange");
  error.details.emplace_back("RangeRequested", range);
  error.details.emplace_back("ActualObjectSize", std::to_string(object_size));
  return error;
}

http::HttpError PreconditionFailed(const std::string& condition) {
  http::HttpError error(
      FailedPrecondition("At least one of the pre-conditions you specified did not hold"), 412,
      "PreconditionFailed");
  error.details.emplace_back("Condition", condition);
  return error;
}

http::HttpError BadRequest(const std::string& code, const std::string& message) {
  return http::HttpError(InvalidArgument(message), 400, code);
}

http::HttpError NotImplemented(const std::string& message) {
  return http::HttpError(Unsupported(message), 501, "NotImplemented");
}

}  // namespace st::api::s3
