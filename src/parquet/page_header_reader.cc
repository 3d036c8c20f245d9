// PageHeader (parquet.thrift) from the compact protocol; unknown fields are
// skipped.
#include "parquet/metadata_reader_internal.h"
#include "parquet/thrift_compact_reader_internal.h"

namespace st::parquet::internal {

using T = ThriftType;

Status ParsePageHeader(const uint8_t* data, size_t size, PageHeader* h, size_t* header_bytes) {
  CompactReader r(data, size, "parquet page header");
  auto data_page = [&](bool v2) -> Status {
    h->has_type_header = true;
    return ReadStruct(&r, [&](int16_t id, ThriftType t) -> Status {
      if (!v2) {
        switch (id) {
          case 1:
            return ReadI32Field(&r, t, id, &h->num_values);
          case 2:
            return ReadI32Field(&r, t, id, &h->encoding);
          case 3:
            return ReadI32Field(&r, t, id, &h->def_level_encoding);
          case 4:
            return ReadI32Field(&r, t, id, &h->rep_level_encoding);
          default:
            return r.Skip(t);
        }
      }
      switch (id) {
        case 1:
          return ReadI32Field(&r, t, id, &h->num_values);
        case 2:
          return ReadI32Field(&r, t, id, &h->num_nulls);
        case 3:
          return ReadI32Field(&r, t, id, &h->num_rows);
        case 4:
          return ReadI32Field(&r, t, id, &h->encoding);
        case 5:
          return ReadI32Field(&r, t, id, &h->def_levels_byte_length);
        case 6:
          return ReadI32Field(&r, t, id, &h->rep_levels_byte_length);
        case 7:
          ST_TRY(r.ExpectType(t, T::kBoolTrue, id));
          h->is_compressed = t == T::kBoolTrue;
          return Status::OK();
        default:
          return r.Skip(t);
      }
    });
  };
  ST_TRY(ReadStruct(&r, [&](int16_t id, ThriftType t) -> Status {
    switch (id) {
      case 1:
        return ReadI32Field(&r, t, id, &h->type);
      case 2:
        return ReadI32Field(&r, t, id, &h->uncompressed_page_size);
      case 3:
        return ReadI32Field(&r, t, id, &h->compressed_page_size);
      case 5:
        if (h->type != static_cast<int32_t>(PageType::kDataPage)) return r.Skip(t);
        ST_TRY(r.ExpectType(t, T::kStruct, id));
        return data_page(false);
      case 7:
        if (h->type != static_cast<int32_t>(PageType::kDictionaryPage)) return r.Skip(t);
        ST_TRY(r.ExpectType(t, T::kStruct, id));
        h->has_type_header = true;
        return ReadStruct(&r, [&](int16_t fid, ThriftType ft) -> Status {
          if (fid == 1) return ReadI32Field(&r, ft, fid, &h->num_values);
          if (fid == 2) return ReadI32Field(&r, ft, fid, &h->encoding);
          return r.Skip(ft);
        });
      case 8:
        if (h->type != static_cast<int32_t>(PageType::kDataPageV2)) return r.Skip(t);
        ST_TRY(r.ExpectType(t, T::kStruct, id));
        return data_page(true);
      default:
        return r.Skip(t);
    }
  }));
  if (h->uncompressed_page_size < 0 || h->compressed_page_size < 0 || h->num_values < 0 ||
      h->num_nulls < 0 || h->def_levels_byte_length < 0 || h->rep_levels_byte_length < 0) {
    return Corruption("parquet page header: negative size or count");
  }
  *header_bytes = r.position();
  return Status::OK();
}

}  // namespace st::parquet::internal
