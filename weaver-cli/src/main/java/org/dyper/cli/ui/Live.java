package org.dyper.cli.ui;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Live updates by Server-Sent Events ({@code GET /api/jvms/{pid}/events}): one poller per process, shared by every
 * stream open on it, asks the monitor at the page's old polling periods (the exact figures every second, a whole
 * REPORT every 5 s) and pushes a small {@code changed} event to each stream when something changed; {@code ended}
 * when the process ended. At most {@link #MAX_STREAMS} streams are open per {@code dyper ui}; each holds one of the
 * server's threads, and ends after {@link #STREAM_MILLIS} (the browser reconnects by itself), when its process ends,
 * or when the UI stops.
 */
final class Live {
    /** Streams open at once, over all processes; one more gets 429 (the page polls then). */
    static final int MAX_STREAMS = 8;
    /** How often the poller asks for the exact figures (REPORT TYPE='INSTRUMENTATION'). */
    static final long TICK_MILLIS = 1000;
    /** A whole REPORT every this many ticks (its stacks are what costs the target). */
    static final int REPORT_TICKS = 5;
    /** A stream ends after this long (below the JDK server's response limit, 120 s); EventSource reconnects. */
    static final long STREAM_MILLIS = 100_000;
    /** A comment line when nothing was sent this long, so a client that went away is noticed. */
    static final long IDLE_MILLIS = 15_000;
    /** Events waiting for one slow stream; beyond, the oldest is dropped (every event carries whole figures). */
    static final int BACKLOG = 16;

    /** What the poller asks the API for: the exact figures and the newest REPORT's facts, each as JSON. */
    interface Source {
        Map<String, Object> exact(Target t) throws Api.Failure;

        Map<String, Object> report(Target t) throws Api.Failure;
    }

    private final Source source;
    private final Semaphore slots = new Semaphore(MAX_STREAMS);
    /** By target (not pid: fleet members on other hosts may share a pid). */
    private final Map<Target, Poller> pollers = new HashMap<>();
    private boolean closed;

    Live(Source source) {
        this.source = source;
    }

    /** A stream on {@code t}'s events, or 429 when {@link #MAX_STREAMS} are open (503 once the UI stops). */
    Stream open(Target t) throws Api.Failure {
        if (!slots.tryAcquire()) {
            throw new Api.Failure(429, MAX_STREAMS + " live streams are open in this dyper ui (the most it serves): "
                    + "close a page, or poll the API");
        }
        synchronized (this) {
            if (closed) {
                slots.release();
                throw new Api.Failure(503, "dyper ui is stopping");
            }
            Poller p = pollers.get(t);
            if (p == null || p.done) {
                p = new Poller(t);
                pollers.put(t, p);
                p.thread.start();
            }
            Stream s = new Stream(p);
            p.streams.add(s);
            t.streams++;
            return s;
        }
    }

    /** Ends every stream and poller (the UI stops). */
    void close() {
        List<Poller> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(pollers.values());
            pollers.clear();
        }
        for (Poller p : all) {
            p.thread.interrupt();
            p.publish(null);
        }
    }

    /** How many streams are open now (for tests and the page's status). */
    int open() {
        return MAX_STREAMS - slots.availablePermits();
    }

    /** The events of one process as a browser's EventSource reads them. */
    final class Stream implements AutoCloseable {
        private final Poller poller;
        private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(BACKLOG);
        private boolean released;

        private Stream(Poller poller) {
            this.poller = poller;
        }

        private void offer(String event) {
            while (!queue.offer(event)) {
                queue.poll();  // a slow reader: the oldest event goes, every event has the whole figures
            }
        }

        /** Writes events until the process ends, the UI stops, the client goes, or {@link #STREAM_MILLIS}. */
        void pump(OutputStream out) throws IOException {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STREAM_MILLIS);
            // reconnect after 2 s when the stream ends (a closed stream is reconnected by EventSource)
            write(out, "retry: 2000\n: process " + poller.target.pid + "\n\n");
            try {
                while (true) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    String event = queue.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS)),
                            TimeUnit.NANOSECONDS);
                    if (event == null) {
                        if (poller.done) {
                            return;
                        }
                        write(out, ": idle\n\n");
                    } else if (event.isEmpty()) {
                        return;  // the poller stopped: the UI stops
                    } else {
                        write(out, event);
                        if (event.startsWith("event: ended")) {
                            return;
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void write(OutputStream out, String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        @Override
        public void close() {
            synchronized (Live.this) {
                if (released) {
                    return;
                }
                released = true;
                poller.streams.remove(this);
                poller.target.streams--;
                if (poller.streams.isEmpty() && pollers.get(poller.target) == poller) {
                    pollers.remove(poller.target);
                    poller.thread.interrupt();
                }
            }
            slots.release();
        }
    }

    /** One per process with open streams: asks the monitor, and hands each event to every stream. */
    private final class Poller implements Runnable {
        final Target target;
        final List<Stream> streams = new ArrayList<>();
        final Thread thread;
        volatile boolean done;
        private long id;

        Poller(Target target) {
            this.target = target;
            this.thread = new Thread(this, "dyper-ui-live-" + target.pid);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            String lastExact = null;
            try {
                for (long tick = 0; ; tick++) {
                    long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
                    synchronized (Live.this) {
                        if (streams.isEmpty() || closed) {
                            return;
                        }
                    }
                    Map<String, Object> e = new LinkedHashMap<>();
                    e.put("pid", target.pid);
                    e.put("tick", tick);
                    try {
                        Map<String, Object> exact = source.exact(target);
                        Map<String, Object> key = new LinkedHashMap<>(exact);
                        key.remove("takenMillis");
                        String text = Json.write(key);
                        if (!text.equals(lastExact)) {
                            e.put("exact", exact);
                            lastExact = text;
                        }
                        if (tick % REPORT_TICKS == 0) {
                            e.put("report", source.report(target));
                        }
                        if (e.size() > 2) {
                            publish(event("changed", e));
                        }
                    } catch (Api.Failure f) {
                        e.put("status", f.status);
                        e.put("error", f.getMessage());
                        if (f.status == 410) {
                            publish(event("ended", e));
                            return;
                        }
                        publish(event("failed", e));
                    }
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);  // the period itself
                    }
                }
            } catch (InterruptedException stop) {
                // the last stream closed, or the UI stops
            } finally {
                done = true;
                synchronized (Live.this) {
                    if (pollers.get(target) == this) {
                        pollers.remove(target);
                    }
                    streams.forEach(s -> s.offer(""));
                }
            }
        }

        private String event(String name, Map<String, Object> data) {
            return "event: " + name + "\nid: " + (++id) + "\ndata: " + Json.write(data) + "\n\n";
        }

        /** Hands an event to every stream; null: the UI stops (each stream ends). */
        void publish(String event) {
            synchronized (Live.this) {
                for (Stream s : streams) {
                    s.offer(event == null ? "" : event);
                }
            }
        }
    }
}
