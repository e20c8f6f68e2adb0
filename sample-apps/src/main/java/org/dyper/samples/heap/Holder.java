package org.dyper.samples.heap;

import java.util.ArrayList;
import java.util.List;

/** Holds the planted nodes in one ArrayList, made with its final capacity so that its array's length is known. */
public final class Holder {
    final List<Node> nodes;

    Holder(int count, int payload) {
        nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] b = new byte[payload];
            b[0] = (byte) i;
            nodes.add(new Node(b));
        }
    }
}
