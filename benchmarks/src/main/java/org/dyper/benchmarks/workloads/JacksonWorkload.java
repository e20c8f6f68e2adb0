package org.dyper.benchmarks.workloads;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A workload on a program nobody here wrote: Jackson writing lists of orders to JSON and reading them back, as
 * objects and as trees of maps, for the given seconds. Prints a checksum. Usage: {@code JacksonWorkload seconds}.
 */
public final class JacksonWorkload {
    /** A bean Jackson maps to and from JSON. */
    public static final class Order {
        public long id;
        public String customer;
        public double amount;
        public List<String> items = new ArrayList<>();
    }

    private JacksonWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        ObjectMapper mapper = new ObjectMapper();
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            Order o = new Order();
            o.id = i;
            o.customer = "customer-" + (i % 97);
            o.amount = i * 1.25;
            for (int k = 0; k < 5; k++) {
                o.items.add("item-" + (i * k % 31));
            }
            orders.add(o);
        }
        long sum = 0;
        while (System.nanoTime() < end) {
            byte[] json = mapper.writeValueAsBytes(orders);
            List<Order> back = mapper.readValue(json, new TypeReference<List<Order>>() { });
            List<Map<String, Object>> tree = mapper.readValue(json, new TypeReference<List<Map<String, Object>>>() { });
            sum += json.length + back.size() + tree.size();
        }
        System.out.println("jackson checksum " + sum);
    }
}
