package org.dyper.benchmarks.workloads;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A workload on a program nobody here wrote: the H2 database (in memory) inserting orders and running grouped,
 * joined and indexed queries, for the given seconds. Prints a checksum. Usage: {@code H2Workload seconds}.
 */
public final class H2Workload {
    private H2Workload() {
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        long sum = 0;
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE customer(id INT PRIMARY KEY, region VARCHAR(20))");
                s.execute("CREATE TABLE orders(id INT PRIMARY KEY, customer INT, amount DECIMAL(12,2), note VARCHAR(64))");
                s.execute("CREATE INDEX orders_customer ON orders(customer)");
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO customer VALUES (?, ?)")) {
                for (int i = 0; i < 2_000; i++) {
                    p.setInt(1, i);
                    p.setString(2, "region-" + (i % 17));
                    p.executeUpdate();
                }
            }
            int next = 0;
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?)");
                    PreparedStatement byCustomer = c.prepareStatement(
                            "SELECT SUM(amount) FROM orders WHERE customer = ?");
                    PreparedStatement grouped = c.prepareStatement("SELECT c.region, COUNT(*), SUM(o.amount) FROM"
                            + " orders o JOIN customer c ON o.customer = c.id GROUP BY c.region ORDER BY 3 DESC")) {
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 500; i++, next++) {
                        insert.setInt(1, next);
                        insert.setInt(2, (next * 7919) % 2_000);
                        insert.setBigDecimal(3, java.math.BigDecimal.valueOf(next % 10_000, 2));
                        insert.setString(4, "order " + next + " of customer " + (next * 7919) % 2_000);
                        insert.executeUpdate();
                    }
                    for (int i = 0; i < 200; i++) {
                        byCustomer.setInt(1, (next + i * 31) % 2_000);
                        try (ResultSet r = byCustomer.executeQuery()) {
                            sum += r.next() && r.getBigDecimal(1) != null ? r.getBigDecimal(1).longValue() : 0;
                        }
                    }
                    if (next % 5_000 == 0) {
                        try (ResultSet r = grouped.executeQuery()) {
                            while (r.next()) {
                                sum += r.getLong(2);
                            }
                        }
                    }
                }
            }
        }
        System.out.println("h2 checksum " + sum);
    }
}
