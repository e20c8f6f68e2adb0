package com.acme.ltw;

/** A chain built by a recursive constructor that writes a final field and rejects a negative depth. */
public class Node {
    private final Node next;

    public Node(int depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("depth " + depth);
        }
        next = depth == 0 ? null : new Node(depth - 1);
    }

    int length() {
        return next == null ? 1 : 1 + next.length();
    }
}
