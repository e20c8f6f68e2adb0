package org.dyper.benchmarks.workloads;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A program whose hot code is a big library class: Jackson's {@code ObjectMapper} (a 99 KB class file), called
 * 600,000 times so that it is compiled and inlined before anything patches it. Prints {@code READY sum}, then
 * serves lines on stdin: {@code call} (1,000 more calls, then {@code ok}) and {@code exit}. Target of
 * {@code benchmarks/run-runtime-patching --only bigclass}.
 */
public final class BigClassTarget {
    /** What is written and read back. */
    public record Order(String id, int qty, double price) {}

    private BigClassTarget() {
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        long sum = run(mapper, 200_000);
        System.out.println("READY " + sum);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine()) {
            sum += run(mapper, 1_000);
            System.out.println("ok");
        }
        System.out.println("sum " + sum);
    }

    private static long run(ObjectMapper mapper, int times) throws Exception {
        long sum = 0;
        for (int i = 0; i < times; i++) {
            String json = mapper.writeValueAsString(new Order("o" + i, i, i * 0.5));
            sum += mapper.readValue(json, Order.class).qty();
            sum += mapper.readValue(json, Map.class).size();
        }
        return sum;
    }
}
