package org.dyper.patch.model;

/** The join point kinds a PATCH can name in its WHAT attribute. */
public enum What {
    ENTER, EXIT, BLOCK_START, SYNC_TEST, SYNC_ENTER, SYNC_EXIT, STATIC_ACCESS, FIELD_ACCESS, STATIC_WRITE,
    FIELD_WRITE, OBJECT_ALLOC, ARRAY_ALLOC, BASE_ARRAY_ALLOC, CALL
}
