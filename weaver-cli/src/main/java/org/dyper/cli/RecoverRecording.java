package org.dyper.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * {@code dyper events recover DIR -o FILE}: a readable recording from the chunks a JVM killed by SIGKILL (or a crash)
 * left in its JFR repository. A chunk JFR was still writing has a header that says how far it was flushed (JFR
 * rewrites the size, the metadata and constant-pool offsets at every flush, once a second) but is marked as in
 * progress, which JDK 25's reader then waits on forever; the recovered copy of such a chunk is cut at the flushed size
 * and marked finished. Chunks are written in the order they began; the result is checked by reading it back, and
 * written to a temporary file renamed onto FILE.
 */
final class RecoverRecording {
    /** JFR's chunk header: magic, version, then sizes and times; see jdk.jfr.internal.consumer.ChunkHeader. */
    private static final int HEADER = 68;
    private static final int SIZE_AT = 8;
    private static final int METADATA_AT = 24;
    private static final int START_NANOS_AT = 32;
    private static final int STATE_AT = 64;

    record Chunk(Path file, long startNanos, long size, boolean inProgress) {
    }

    /** What was recovered: the chunks used, those left out (with why), the events and the last one's end. */
    record Result(List<Chunk> used, List<String> skipped, long events, long dyperEvents, Instant lastEvent) {
    }

    private RecoverRecording() {
    }

    /**
     * The folder of one JVM's chunks: {@code dir} itself when it holds chunks, else its one subfolder that does (JFR
     * makes {@code <time>_<pid>} folders under the base repository).
     */
    static Path chunkFolder(Path dir) throws CommandFailure, IOException {
        if (!Files.isDirectory(dir)) {
            throw new CommandFailure(ExitCode.IO_ERROR, dir + ": no such folder (give the JFR repository folder, e.g. "
                    + "FILE.chunks of dyper run --jfr FILE)");
        }
        if (!chunkFiles(dir).isEmpty()) {
            return dir;
        }
        List<Path> withChunks = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(Files::isDirectory).sorted().toList()) {
                if (!chunkFiles(p).isEmpty()) {
                    withChunks.add(p);
                }
            }
        }
        if (withChunks.isEmpty()) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, dir + ": no JFR chunks (*.jfr) in it or in its "
                    + "subfolders; a JVM that ended normally removes its chunks");
        }
        if (withChunks.size() > 1) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, dir + ": chunks of " + withChunks.size()
                    + " JVMs; name one folder: " + String.join(", ", withChunks.stream().map(Path::toString).toList()));
        }
        return withChunks.get(0);
    }

    private static List<Path> chunkFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jfr") && Files.isRegularFile(p)).toList();
        }
    }

    static Result recover(Path dir, Path out) throws CommandFailure, IOException {
        Path folder = chunkFolder(dir);
        List<Chunk> chunks = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Path f : chunkFiles(folder)) {
            String why = null;
            try (FileChannel c = FileChannel.open(f, StandardOpenOption.READ)) {
                ByteBuffer h = ByteBuffer.allocate(HEADER);
                while (h.hasRemaining() && c.read(h) >= 0) {
                    // read the whole header
                }
                h.flip();
                if (h.limit() < HEADER || h.getInt(0) != 0x464c5200) {
                    why = "not a JFR chunk (no complete FLR header)";
                } else {
                    long size = h.getLong(SIZE_AT);
                    long metadata = h.getLong(METADATA_AT);
                    if (metadata == 0 || size <= HEADER) {
                        why = "nothing flushed to it yet";
                    } else if (size > c.size()) {
                        why = "shorter (" + c.size() + " bytes) than its header says (" + size + ")";
                    } else {
                        chunks.add(new Chunk(f, h.getLong(START_NANOS_AT), size, h.get(STATE_AT) != 0));
                    }
                }
            }
            if (why != null) {
                skipped.add(f.getFileName() + ": " + why);
            }
        }
        if (chunks.isEmpty()) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, folder + ": no chunk with events to recover ("
                    + String.join("; ", skipped) + ")");
        }
        chunks.sort(Comparator.comparingLong(Chunk::startNanos));
        Path target = out.toAbsolutePath();
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
        try {
            try (OutputStream o = Files.newOutputStream(tmp)) {
                for (Chunk k : chunks) {
                    byte[] bytes = new byte[(int) Math.min(k.size(), Integer.MAX_VALUE)];
                    try (RandomAccessFile r = new RandomAccessFile(k.file().toFile(), "r")) {
                        r.readFully(bytes);
                    }
                    bytes[STATE_AT] = 0; // finished: the reader takes the flushed size as the chunk's end
                    o.write(bytes);
                }
            }
            long events = 0;
            long dyper = 0;
            Instant last = null;
            try (RecordingFile r = new RecordingFile(tmp)) {
                while (r.hasMoreEvents()) {
                    RecordedEvent e = r.readEvent();
                    events++;
                    if (e.getEventType().getName().startsWith("dyper.")) {
                        dyper++;
                    }
                    if (last == null || e.getEndTime().isAfter(last)) {
                        last = e.getEndTime();
                    }
                }
            } catch (IOException | RuntimeException e) {
                throw new CommandFailure(ExitCode.INVALID_INPUT, folder + ": the recovered chunks do not read as a "
                        + "recording (" + e.getMessage() + "); nothing written to " + out);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Result(chunks, skipped, events, dyper, last);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
