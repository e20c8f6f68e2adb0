package org.dyper.runtime.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.dyper.runtime.io.AtomicWrite;

/** Registry entries: {@code key=value} lines in a file only its owner can read, written atomically. */
public final class RegistryFiles {
    private RegistryFiles() {
    }

    private static boolean posix(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Creates {@code dir} and missing parents with rwx------ (existing folders are left as they are). */
    public static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path abs = dir.toAbsolutePath();
        if (posix(abs.getRoot() == null ? abs : abs.getRoot())) {
            FileAttribute<Set<PosixFilePermission>> rwx =
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
            try {
                Files.createDirectories(abs, rwx);
            } catch (FileAlreadyExistsException ignored) {
                // raced with another process
            }
        } else {
            Files.createDirectories(abs);
        }
    }

    /** Writes the entry with rw------- from the start (temporary file, then an atomic rename). */
    public static Path writePrivate(Path file, Map<String, String> fields) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> f : fields.entrySet()) {
            text.append(f.getKey()).append('=').append(f.getValue().replace('\n', ' ').replace('\r', ' '))
                    .append('\n');
        }
        AtomicWrite.write(file, PosixFilePermissions.fromString("rw-------"), true,
                out -> out.write(text.toString().getBytes(StandardCharsets.UTF_8)));
        return file;
    }

    public static Map<String, String> read(Path file) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return fields;
    }
}
