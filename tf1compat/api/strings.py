"""`tf.strings`."""

# ruff: noqa: F401
from tf1compat.ops.decode_ops import reduce_join
from tf1compat.ops.regex_ops import regex_full_match, regex_replace
from tf1compat.ops.string_ops import (as_string, string_format as format,
                                      string_join as join, string_length as length,
                                      string_lower as lower,
                                      string_strip as strip, string_to_hash_bucket as
                                      to_hash_bucket, string_to_hash_bucket_fast as
                                      to_hash_bucket_fast, string_to_hash_bucket_strong as
                                      to_hash_bucket_strong, string_to_number as to_number,
                                      string_upper as upper, substr)

# (section: api-math)
from tf1compat.ops.string_unicode_ops import (ngrams, unicode_encode,
                                              unicode_transcode, unsorted_segment_join)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('strings', globals())
from tf1compat.ragged.ragged_string_ops import strings_split_v1 as split
from tf1compat.ragged.ragged_string_ops import (bytes_split, unicode_decode,
                                                unicode_decode_with_offsets, unicode_split,
                                                unicode_split_with_offsets)
