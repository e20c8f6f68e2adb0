package org.dyper.runtime.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * A NATS {@code .creds} file (a user's JWT and its secret NKey seed, docs/fleet.md): like ssh with a private key, the
 * monitor ({@code natscreds}) and the CLI ({@code --creds}) warn when other users may read it.
 */
public final class CredsFile {
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private CredsFile() {
    }

    /**
     * Why {@code file} is exposed (its group or other users may read or write it), or null when only its owner may
     * (or the file system has no POSIX permissions, or they cannot be read).
     */
    public static String exposed(Path file) {
        try {
            if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return null;
            }
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.stream().noneMatch(OTHERS::contains)) {
                return null;
            }
            return "the .creds file " + file + " is open to other users (" + PosixFilePermissions.toString(perms)
                    + "): it holds a NATS user's secret NKey seed; make it readable by its owner only (chmod 600 "
                    + file + ")";
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
