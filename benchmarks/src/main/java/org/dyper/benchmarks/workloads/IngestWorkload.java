package org.dyper.benchmarks.workloads;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A multi-threaded program on two libraries nobody here wrote, for what-if profiling (issue 26, docs/whatif.md): an
 * ingest pipeline. Thread {@code parse} parses JSON orders with Jackson ({@link #parse}); thread {@code store} upserts
 * each into the H2 database in memory ({@link #store}); a bounded queue joins them.
 *
 * <p>Each stage has a naive version and a real optimisation, so that a prediction can be checked against a real change:
 * <ul>
 *   <li>{@code parse=tree} (default) reads a whole {@code JsonNode} tree; {@code parse=stream} reads the four fields
 *       with Jackson's streaming parser;</li>
 *   <li>{@code store=check} (default) asks whether the order exists, then inserts or updates it (two statements);
 *       {@code store=merge} does it in one {@code MERGE} statement.</li>
 * </ul>
 *
 * <p>Usage: {@code IngestWorkload ORDERS [parse=tree|stream] [store=check|merge]}. ORDERS 0 runs until standard
 * input ends. Prints a checksum of the table on stdout, and on stderr the wall time and the mean time per call of each
 * stage ({@code parse 12.3 us/call, store 45.6 us/call}), from which a change's real speed-up of a stage is read.
 */
public final class IngestWorkload {
    /** One parsed order. */
    record Order(int id, int customer, BigDecimal amount, String note) {
    }

    private static final Order END = new Order(-1, 0, BigDecimal.ZERO, "");
    private static final int DISTINCT = 20_000;
    private static final int POOL = 1_024;

    private final BlockingQueue<Order> queue = new ArrayBlockingQueue<>(64);
    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private final JsonFactory json = new JsonFactory();
    private final boolean stream;
    private final boolean merge;
    private final String[] documents = new String[POOL];
    private volatile boolean stop;
    private long parseNanos;
    private long parsed;
    private long storeNanos;
    private long stored;

    private PreparedStatement exists;
    private PreparedStatement insert;
    private PreparedStatement update;
    private PreparedStatement upsert;

    private IngestWorkload(boolean stream, boolean merge) {
        this.stream = stream;
        this.merge = merge;
        for (int i = 0; i < POOL; i++) {
            StringBuilder b = new StringBuilder("{\"id\":").append(i).append(",\"customer\":").append(i * 7919 % 2_000)
                    .append(",\"amount\":").append(i % 10_000).append('.').append(i % 100 / 10).append(i % 10)
                    .append(",\"note\":\"order ").append(i).append("\",\"lines\":[");
            for (int k = 0; k < 12; k++) {
                b.append(k == 0 ? "" : ",").append("{\"sku\":\"sku-").append(i * k % 97).append("\",\"qty\":")
                        .append(1 + k % 4).append(",\"tags\":[\"a").append(k).append("\",\"b\"]}");
            }
            documents[i] = b.append("],\"meta\":{\"source\":\"feed\",\"version\":3}}").toString();
        }
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        long orders = Long.parseLong(args[0]);
        boolean stream = false;
        boolean merge = false;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "parse=tree" -> stream = false;
                case "parse=stream" -> stream = true;
                case "store=check" -> merge = false;
                case "store=merge" -> merge = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (expected parse=tree|stream or store=check|merge)");
            }
        }
        IngestWorkload w = new IngestWorkload(stream, merge);
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:ingest")) {
            w.open(c);
            Thread parser = new Thread(() -> w.parseAll(orders), "parse");
            Thread store = new Thread(() -> w.storeAll(), "store");
            parser.start();
            store.start();
            if (orders == 0) {
                Thread watch = new Thread(() -> {
                    try {
                        while (System.in.read() >= 0) {
                            // the caller holds standard input open for as long as the program should run
                        }
                    } catch (IOException e) {
                        // ends like end of input
                    }
                    w.stop = true;
                }, "stdin");
                watch.setDaemon(true);
                watch.start();
            }
            parser.join();
            store.join();
            long sum;
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(customer), SUM(amount) FROM orders")) {
                r.next();
                sum = r.getLong(1) * 31 + r.getLong(2) + r.getBigDecimal(3).longValue();
            }
            System.out.println("ingest orders=" + w.stored + " checksum=" + sum);
        }
        System.err.printf("ingest: %d orders in %.3f s; parse %.1f us/call, store %.1f us/call%n", w.stored,
                (System.nanoTime() - start) / 1e9, w.parseNanos / 1e3 / Math.max(1, w.parsed),
                w.storeNanos / 1e3 / Math.max(1, w.stored));
    }

    private void open(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders(id INT PRIMARY KEY, customer INT, amount DECIMAL(12,2), note VARCHAR(64),"
                    + " revisions INT)");
        }
        exists = c.prepareStatement("SELECT revisions FROM orders WHERE id = ?");
        insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, 1)");
        update = c.prepareStatement("UPDATE orders SET customer = ?, amount = ?, note = ?, revisions = ? WHERE id = ?");
        upsert = c.prepareStatement("MERGE INTO orders o USING (VALUES (CAST(? AS INT), CAST(? AS INT),"
                + " CAST(? AS DECIMAL(12,2)), CAST(? AS VARCHAR(64)))) v(id, customer, amount, note) ON o.id = v.id"
                + " WHEN MATCHED THEN UPDATE SET customer = v.customer, amount = v.amount, note = v.note,"
                + " revisions = o.revisions + 1"
                + " WHEN NOT MATCHED THEN INSERT VALUES (v.id, v.customer, v.amount, v.note, 1)");
    }

    private void parseAll(long orders) {
        try {
            for (long i = 0; orders == 0 ? !stop : i < orders; i++) {
                long t = System.nanoTime();
                Order o = parse(documents[(int) (i % POOL)], (int) (i % DISTINCT));
                parseNanos += System.nanoTime() - t;
                parsed++;
                queue.put(o);
            }
            queue.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void storeAll() {
        try {
            for (Order o = queue.take(); o != END; o = queue.take()) {
                long t = System.nanoTime();
                store(o);
                storeNanos += System.nanoTime() - t;
                stored++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parses one order; the document's own id is replaced by {@code id}, so that ids repeat after DISTINCT. */
    Order parse(String document, int id) throws IOException {
        if (!stream) {
            JsonNode n = mapper.readTree(document);
            return new Order(id, n.get("customer").asInt(), n.get("amount").decimalValue(),
                    n.get("note").asText());
        }
        int customer = 0;
        BigDecimal amount = BigDecimal.ZERO;
        String note = "";
        try (JsonParser p = json.createParser(document)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "customer" -> customer = p.getIntValue();
                    case "amount" -> amount = p.getDecimalValue();
                    case "note" -> note = p.getText();
                    default -> p.skipChildren();
                }
            }
        }
        return new Order(id, customer, amount, note);
    }

    /** Inserts the order, or updates it and counts a revision if its id is already there. */
    void store(Order o) throws SQLException {
        if (merge) {
            upsert.setInt(1, o.id());
            upsert.setInt(2, o.customer());
            upsert.setBigDecimal(3, o.amount());
            upsert.setString(4, o.note());
            upsert.executeUpdate();
            return;
        }
        exists.setInt(1, o.id());
        int revisions;
        try (ResultSet r = exists.executeQuery()) {
            revisions = r.next() ? r.getInt(1) : 0;
        }
        if (revisions == 0) {
            insert.setInt(1, o.id());
            insert.setInt(2, o.customer());
            insert.setBigDecimal(3, o.amount());
            insert.setString(4, o.note());
            insert.executeUpdate();
        } else {
            update.setInt(1, o.customer());
            update.setBigDecimal(2, o.amount());
            update.setString(3, o.note());
            update.setInt(4, revisions + 1);
            update.setInt(5, o.id());
            update.executeUpdate();
        }
    }
}
