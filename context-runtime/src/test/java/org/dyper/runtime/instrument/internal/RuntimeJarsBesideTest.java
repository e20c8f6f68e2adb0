package org.dyper.runtime.instrument.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AspectJ runtime a monitor finds beside its own jar, for a patch set made on another machine whose runtime jar
 * paths are not on this one.
 */
class RuntimeJarsBesideTest {
    @TempDir
    Path lib;

    @Test
    void onlyAspectjRuntimeJarsInTheFolderByName() throws Exception {
        for (String name : List.of("dyper-runtime-0.1.0.jar", "aspectjrt-1.9.25.1.jar", "aspectjrt-1.9.22.jar",
                "aspectjweaver-1.9.25.1.jar", "aspectjrt-1.9.25.1.jar.sha1", "aspectjrt.txt")) {
            Files.write(lib.resolve(name), new byte[] {1});
        }
        Files.createDirectory(lib.resolve("aspectjrt-dir.jar.d"));
        assertEquals(List.of(lib.resolve("aspectjrt-1.9.22.jar"), lib.resolve("aspectjrt-1.9.25.1.jar")),
                Patcher.aspectjRuntimesIn(lib));
    }

    @Test
    void noFolderNoJars() {
        assertEquals(List.of(), Patcher.aspectjRuntimesIn(null));
        assertEquals(List.of(), Patcher.aspectjRuntimesIn(lib.resolve("missing")));
    }
}
