package org.dyper.samples.heap;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A planted heap: one {@link Holder}, kept by a static field, holding {@link HeapFacts#NODES} nodes of a
 * {@link HeapFacts#PAYLOAD}-byte array each. Prints {@code ready}, then waits until stdin ends. With
 * {@code --big-mb M}, a second holder keeps about M MB more in such nodes, 100 bytes each with its array and slot
 * (for the benchmark).
 */
public final class HeapApp {
    static Holder holder;
    static Holder big;

    private HeapApp() {
    }

    public static void main(String[] args) throws Exception {
        holder = new Holder(HeapFacts.NODES, HeapFacts.PAYLOAD);
        if (args.length == 2 && args[0].equals(HeapFacts.BIG)) {
            big = new Holder((int) (Long.parseLong(args[1]) * 1024 * 1024 / 100), HeapFacts.PAYLOAD);
        }
        System.out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (in.readLine() != null) {
            // the heap stays as planted until stdin ends
        }
        System.out.println(holder.nodes.size() + (big == null ? 0 : big.nodes.size()));
    }
}
