package org.dyper.patch.build;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.dyper.runtime.io.AtomicWrite;

/**
 * Writes a copy of a jar or class folder as a jar, with some entries replaced or added, the way a woven jar must be:
 * signature files dropped and the manifest's per-entry digests with them (the classes changed, so a signature would no
 * longer verify, and a half-valid signature makes the JVM refuse the jar); the input is never opened with
 * verification on. The jar is written to a temporary file in the output's folder and renamed over the output only when
 * complete ({@link AtomicWrite}), so a failure leaves nothing half-written; it gets the input jar's permissions, or the
 * umask's for a folder. A plain jar's unchanged entries are copied compressed as they are ({@link RawJarCopy}).
 */
final class JarOutput {
    private JarOutput() {}

    /**
     * Copies {@code input} to {@code outJar}: an entry named in {@code changes} gets those bytes instead (null drops
     * it), the other {@code changes} are added at the end, and {@code descriptor} rewrites module descriptors. Returns
     * notes (the signature files dropped).
     */
    static List<String> write(Path input, Path outJar, Map<String, byte[]> changes, UnaryOperator<byte[]> descriptor)
            throws IOException {
        return write(input, outJar, changes, descriptor, true);
    }

    /** As above; with {@code raw}, a plain jar's unchanged entries are copied compressed as they are. */
    static List<String> write(Path input, Path outJar, Map<String, byte[]> changes, UnaryOperator<byte[]> descriptor,
            boolean raw) throws IOException {
        if (raw && Files.isRegularFile(input)) {
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(input)) {
                if (RawJarCopy.entries(ch) != null) {
                    return writeRaw(input, outJar, changes, descriptor);
                }
            }
        }
        List<String> notes = new ArrayList<>();
        // a woven jar is cheap to make again: not forced to the disk
        AtomicWrite.write(outJar, inputPermissions(input), false, file -> {
            try (ZipOutputStream out = new ZipOutputStream(file)) {
                Set<String> written = new HashSet<>();
                Copier copier = (name, time, data) -> {
                    if (!written.add(name)) {
                        return;
                    }
                    ZipEntry e = new ZipEntry(name);
                    if (time >= 0) {
                        e.setTime(time);
                    }
                    out.putNextEntry(e);
                    if (data != null) {
                        out.write(data);
                    }
                    out.closeEntry();
                };
                boolean signed = Jars.entries(input).stream().anyMatch(JarOutput::isSignature);
                Jars.forEach(input, (name, time, bytes) -> {
                    if (isSignature(name)) {
                        notes.add("dropped signature file " + name + ": woven classes no longer match the signature");
                        return;
                    }
                    if (changes.containsKey(name)) {
                        if (changes.get(name) != null) {
                            copier.put(name, -1, changes.get(name));
                        } else {
                            written.add(name);
                        }
                        return;
                    }
                    byte[] data = name.endsWith("/") ? null : bytes.read();
                    if (signed && name.equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        data = withoutDigests(data);
                    } else if (ModuleInfo.isDescriptor(name)) {
                        data = descriptor.apply(data);
                    }
                    copier.put(name, time, data);
                });
                for (Map.Entry<String, byte[]> e : changes.entrySet()) {
                    if (e.getValue() != null) {
                        copier.put(e.getKey(), -1, e.getValue());
                    }
                }
            }
        });
        return notes;
    }

    /**
     * {@link #write} for a plain jar ({@link RawJarCopy}): the same entries in the same order, the unchanged ones
     * copied compressed as they are, without inflating and deflating them again.
     */
    private static List<String> writeRaw(Path input, Path outJar, Map<String, byte[]> changes,
            UnaryOperator<byte[]> descriptor) throws IOException {
        List<String> notes = new ArrayList<>();
        AtomicWrite.write(outJar, inputPermissions(input), false, file -> {
            java.io.BufferedOutputStream out = new java.io.BufferedOutputStream(file, 1 << 16);
            RawJarCopy.write(input, out, (entries, jar) -> {
                Set<String> written = new HashSet<>();
                boolean signed = entries.stream().anyMatch(e -> isSignature(e.name()));
                for (RawJarCopy.Entry e : entries) {
                    String name = e.name();
                    if (isSignature(name)) {
                        notes.add("dropped signature file " + name + ": woven classes no longer match the signature");
                    } else if (changes.containsKey(name)) {
                        if (written.add(name) && changes.get(name) != null) {
                            jar.add(name, changes.get(name));
                        }
                    } else if (!written.add(name)) {
                        continue;
                    } else if (signed && name.equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        jar.add(name, withoutDigests(Jars.read(input, name)));
                    } else if (ModuleInfo.isDescriptor(name)) {
                        jar.add(name, descriptor.apply(Jars.read(input, name)));
                    } else {
                        jar.copy(e);
                    }
                }
                for (Map.Entry<String, byte[]> c : changes.entrySet()) {
                    if (c.getValue() != null && written.add(c.getKey())) {
                        jar.add(c.getKey(), c.getValue());
                    }
                }
            });
            out.flush();
        });
        return notes;
    }

    @FunctionalInterface
    private interface Copier {
        void put(String name, long time, byte[] data) throws IOException;
    }

    /**
     * A new empty file beside {@code target} ({@code .dyper-out-p<pid>-<n>.tmp}: a killed weave's is recognised and
     * removed by the next one, see {@link TempFiles}), made with the default permissions (what the umask leaves).
     */
    static Path create(Path target) throws IOException {
        return TempFiles.publicFile(target.toAbsolutePath().getParent(), "out", ".tmp");
    }

    /** The POSIX permissions of {@code input} when it is a regular file; else null (what the umask leaves). */
    private static Set<PosixFilePermission> inputPermissions(Path input) throws IOException {
        if (Files.isRegularFile(input) && Files.getFileAttributeView(input, PosixFileAttributeView.class) != null) {
            return Files.getPosixFilePermissions(input);
        }
        return null;
    }

    /** Gives {@code file} the POSIX permissions of {@code like} when that is a regular file. */
    static void permissions(Path like, Path file) throws IOException {
        if (Files.isRegularFile(like) && Files.getFileAttributeView(like, PosixFileAttributeView.class) != null) {
            try {
                Files.setPosixFilePermissions(file, Files.getPosixFilePermissions(like));
            } catch (FileSystemException | UnsupportedOperationException ignored) {
                // the default (umask) permissions stay: a jar that cannot take the input's mode is still usable
            }
        }
    }

    /** A signed jar's signature files: {@code META-INF/*.SF}, {@code .RSA}, {@code .DSA}, {@code .EC}, {@code SIG-*}. */
    static boolean isSignature(String name) {
        if (!name.startsWith("META-INF/") || name.indexOf('/', 9) >= 0) {
            return false;
        }
        String upper = name.toUpperCase(Locale.ROOT);
        return upper.endsWith(".SF") || upper.endsWith(".RSA") || upper.endsWith(".DSA") || upper.endsWith(".EC")
                || upper.startsWith("META-INF/SIG-");
    }

    /** The manifest without the per-entry digests a signature added (sections left empty are dropped). */
    static byte[] withoutDigests(byte[] manifest) throws IOException {
        if (manifest == null) {
            return null;
        }
        Manifest m = new Manifest(new ByteArrayInputStream(manifest));
        m.getEntries().values().forEach(a -> a.keySet().removeIf(k -> k.toString().toUpperCase(Locale.ROOT)
                .endsWith("-DIGEST")));
        m.getEntries().values().removeIf(Attributes::isEmpty);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.write(out);
        return out.toByteArray();
    }
}
