package org.dyper.samples.whatif;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Planted for what-if profiling (a): a two-stage pipeline. Thread {@code parse} parses item i ({@link #parse}, the
 * slow stage: on the critical path), thread {@code render} renders it ({@link #render}, half the work: off the critical
 * path while both stages have a core) and emits it ({@link #emit}, the progress point). Speeding up {@code parse} by
 * k % speeds the program up by about k %; speeding up {@code render} changes nothing.
 *
 * <p>{@code Pipeline ITEMS [parse:K] [render:K]}: ITEMS items (0: until standard input ends); {@code parse:20} makes
 * parse really do 20 % less work. Prints {@code pipeline items=N checksum=C}, and the wall time on stderr.
 */
public final class Pipeline {
    public static final int PARSE = 600_000;
    public static final int RENDER = 300_000;
    private static final long END = Long.MIN_VALUE;

    private final BlockingQueue<Long> queue = new ArrayBlockingQueue<>(8);
    private final int parseIterations;
    private final int renderIterations;
    private volatile boolean stop;
    private long emitted;
    private long checksum;

    Pipeline(int parseIterations, int renderIterations) {
        this.parseIterations = parseIterations;
        this.renderIterations = renderIterations;
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        long items = Work.items(args);
        Pipeline p = new Pipeline(Work.iterations(args, "parse", PARSE), Work.iterations(args, "render", RENDER));
        Thread parser = new Thread(() -> p.parseAll(items), "parse");
        Thread renderer = new Thread(p::renderAll, "render");
        parser.start();
        renderer.start();
        if (items == 0) {
            Work.untilStdinEnds(() -> p.stop = true);
        }
        parser.join();
        renderer.join();
        Work.report("pipeline", p.emitted, p.checksum, start);
    }

    private void parseAll(long items) {
        try {
            for (long i = 0; items == 0 ? !stop : i < items; i++) {
                produce(i);
            }
            queue.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void renderAll() {
        try {
            while (consume()) {
                // one item per call
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stage 1's step: parse item i and hand it on. */
    void produce(long i) throws InterruptedException {
        queue.put(parse(i));
    }

    /** Stage 2's step: take an item, render and emit it; false at the end. */
    boolean consume() throws InterruptedException {
        long item = queue.take();
        if (item == END) {
            return false;
        }
        emit(render(item));
        return true;
    }

    long parse(long i) {
        return Work.burn(i, parseIterations) & Long.MAX_VALUE;
    }

    long render(long parsed) {
        return Work.burn(parsed, renderIterations);
    }

    /** The progress point: one item done. */
    void emit(long rendered) {
        emitted++;
        checksum = checksum * 31 + rendered;
    }

    /** The checksum of the first {@code items} items, computed without threads (what the program must print). */
    public static long checksum(long items, int parseIterations, int renderIterations) {
        // parse, render and emit of each item, with Work.jump in place of Work.burn (the same values, without the work)
        Work.Jump parse = Work.jump(parseIterations);
        Work.Jump render = Work.jump(renderIterations);
        long checksum = 0;
        for (long i = 0; i < items; i++) {
            checksum = checksum * 31 + render.burn(parse.burn(i) & Long.MAX_VALUE);
        }
        return checksum;
    }
}
