package org.dyper.patch.aspectj;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.runtime.PatchService;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.xml.ModelReader;

/** Test harness: patches for a running JVM made from model and mode files, the way the DYPATCH service makes them. */
final class RuntimePatches {
    private RuntimePatches() {}

    /**
     * The patch of {@code in}'s model (one model file) for its targets (the classes to patch come first, then the
     * class path), written into {@code directory}.
     */
    static PatchService.Patched patch(Weaver.Inputs in, Path directory) throws Exception {
        List<Path> roots = new ArrayList<>(in.targets());
        roots.addAll(in.classpath());
        PatchService service = new PatchService(ModeCatalog.load(in.modeFiles()), new PatchService.TargetClasses(roots),
                directory);
        String name = service.model(ModelReader.read(in.models().get(0)));
        return service.patch(name, true, List.of());
    }
}
