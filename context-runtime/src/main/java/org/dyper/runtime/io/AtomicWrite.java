package org.dyper.runtime.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Writing a file so that no reader ever sees half of it: the content goes to a temporary file beside the target (in
 * the same folder, so the rename is atomic), is forced to the disk, and is renamed over the target once complete. A
 * failure, or a kill, leaves the previous file whole; a failure removes the temporary file, and the temporary files
 * of processes that died while writing ({@code .<name>.<pid>.<n>.tmp}) are removed by the next write to the same
 * target. The same for a folder: {@link #publishFolder} renames a folder built beside its target into place.
 *
 * <p>The target is what a user means by it: a symbolic link keeps pointing where it did (the file it names is
 * replaced), and an existing target that is not a regular file (a pipe, {@code /dev/stderr}) is written directly,
 * since it cannot be replaced; a file written with permissions of its own (a private registry entry) replaces the
 * link or pipe instead. Missing folders are made. JDK only, for the runtime and the tools alike.
 */
public final class AtomicWrite {
    /**
     * Permissions that mean "those of the file replaced": pass it to {@link #write(Path, Set, boolean, Content)} to
     * keep them (a new file gets what the umask leaves). Told apart from other sets by identity.
     */
    public static final Set<PosixFilePermission> KEEP =
            Collections.unmodifiableSet(EnumSet.noneOf(PosixFilePermission.class));

    private static final AtomicLong SEQUENCE = new AtomicLong();

    private AtomicWrite() {
    }

    /** What goes into the file. */
    @FunctionalInterface
    public interface Content {
        /** Writes the whole content to {@code out} (closing it is not needed, and does not close the file). */
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code text} as UTF-8 to {@code target}; see {@link #write(Path, Set, boolean, Content)}. */
    public static void write(Path target, String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code target}; see {@link #write(Path, Set, boolean, Content)}. */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, KEEP, true, out -> out.write(bytes));
    }

    /**
     * Writes {@code content} to {@code target}, keeping the permissions of the file it replaces (a new file gets what
     * the umask leaves), forced to the disk before the rename; see {@link #write(Path, Set, boolean, Content)}.
     */
    public static void write(Path target, Content content) throws IOException {
        write(target, KEEP, true, content);
    }

    /**
     * Writes {@code content} to {@code target} through a temporary file that is then renamed over it.
     *
     * @param permissions the POSIX permissions the file gets, from its creation (so {@code rw-------} content is
     *     never readable by others, not even for a moment); {@link #KEEP} for those of the file replaced; null for what
     *     the umask leaves. Ignored where the file system has no POSIX permissions. A file with permissions of its
     *     own replaces whatever is at {@code target}, a symbolic link or a pipe too: a private file (a registry
     *     entry) is never written through a link someone else put there.
     * @param force whether the content is forced to the disk before the rename, so that even a crash of the machine
     *     leaves the old file or the new one whole (a report); a file that is cheap to make again (a woven jar) may
     *     skip it
     * @throws IOException when the folder cannot be made or written, or {@code content} fails; the target is then as
     *     it was, and the temporary file is gone
     */
    public static void write(Path target, Set<PosixFilePermission> permissions, boolean force, Content content)
            throws IOException {
        Path path = target.toAbsolutePath();
        boolean own = permissions != KEEP && permissions != null;
        if (!own && Files.exists(path)) {
            path = path.toRealPath();  // a symbolic link: replace the file it names, keep the link
            if (!Files.isRegularFile(path)) {
                try (OutputStream out = Files.newOutputStream(path)) {
                    content.writeTo(out);
                }
                return;
            }
        }
        Path dir = path.getParent();
        Files.createDirectories(dir);
        String name = path.getFileName().toString();
        removeStale(dir, name);
        Path tmp = dir.resolve("." + name + "." + ProcessHandle.current().pid() + "." + SEQUENCE.incrementAndGet()
                + ".tmp");
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        Set<PosixFilePermission> mode = permissions == KEEP
                ? (posix && Files.isRegularFile(path) ? Files.getPosixFilePermissions(path) : null) : permissions;
        try {
            Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            FileAttribute<?>[] attributes = posix && mode != null && permissions != KEEP
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)} : new FileAttribute<?>[0];
            try (FileChannel channel = FileChannel.open(tmp, options, attributes)) {
                OutputStream out = new FilterOutputStream(Channels.newOutputStream(channel)) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush();  // the channel stays open until the content is on the disk
                    }
                };
                content.writeTo(out);
                out.flush();
                if (force) {
                    channel.force(true);
                }
            }
            if (posix && mode != null) {
                // the umask may have taken bits from the permissions asked for at creation, and KEEP sets them now
                Files.setPosixFilePermissions(tmp, mode);
            }
            move(tmp, path);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Renames {@code tmp} over {@code target}: atomically where the file system can, else as a plain rename. */
    public static void move(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Renames the complete folder {@code tmp} (made beside {@code target}) to {@code target}, atomically. When
     * another process got there first, its folder is used if {@code complete} accepts it; {@code tmp} is then left for
     * the caller to remove.
     *
     * @return true when {@code tmp} became {@code target}, false when another complete one was there
     * @throws IOException when the rename fails and no complete folder is at {@code target}
     */
    public static boolean publishFolder(Path tmp, Path target, Predicate<Path> complete) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (FileSystemException e) {
            // Linux says "Directory not empty" as a plain FileSystemException, not DirectoryNotEmptyException
            if (!Files.isDirectory(target) || !complete.test(target)) {
                throw e;  // another writer's folder is not complete: do not use it
            }
            return false;
        }
    }

    /** Removes {@code .<name>.<pid>.<n>.tmp} files in {@code dir} whose process is gone (killed while writing). */
    private static void removeStale(Path dir, String name) {
        String prefix = "." + name + ".";
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, p -> {
            String f = p.getFileName().toString();
            return f.startsWith(prefix) && f.endsWith(".tmp");
        })) {
            for (Path f : files) {
                String middle = f.getFileName().toString().substring(prefix.length());
                try {
                    long pid = Long.parseLong(middle.substring(0, middle.indexOf('.')));
                    if (ProcessHandle.of(pid).isEmpty()) {
                        Files.deleteIfExists(f);
                    }
                } catch (RuntimeException | IOException notOurs) {
                    // not a temporary file of ours, or already gone
                }
            }
        } catch (IOException ignored) {
            // an unreadable folder: the write below reports what matters
        }
    }
}
