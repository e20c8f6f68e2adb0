package org.dyper.samples.heap;

/** One planted object: it refers to its own byte array and to nothing else. */
public final class Node {
    final byte[] payload;

    Node(byte[] payload) {
        this.payload = payload;
    }
}
