package org.dyper.patch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.dyper.patch.model.ExternalMode;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Mode;
import org.dyper.patch.model.Problem;
import org.dyper.patch.xml.ModeFile;
import org.dyper.patch.xml.ModeReader;

/**
 * The patching modes a PATCH may name: the standard library ({@value #LIBRARY_RESOURCE}) plus the user's mode files.
 * A user mode with the name of a library mode replaces it (and is reported by {@link #warnings()}); two user files
 * defining the same name is an error. Immutable and thread-safe.
 */
public final class ModeCatalog {
    /** Class-path resource holding the standard library of modes. */
    public static final String LIBRARY_RESOURCE = "org/dyper/patch/library/modes.xml";

    /** One library mode as {@code --help} lists it. {@code description} is empty when the mode has none. */
    public record Entry(String name, String description) {}

    private final Map<String, Mode> modes;
    private final Map<String, ExternalMode> externals;
    private final Map<String, String> descriptions;
    private final List<Entry> library;
    private final List<Problem> warnings;
    private final String fingerprint;

    private ModeCatalog(Map<String, Mode> modes, Map<String, ExternalMode> externals, Map<String, String> descriptions,
                        List<Entry> library, List<Problem> warnings, String fingerprint) {
        this.fingerprint = fingerprint;
        this.modes = Map.copyOf(modes);
        this.externals = Map.copyOf(externals);
        this.descriptions = Map.copyOf(descriptions);
        this.library = List.copyOf(library);
        this.warnings = List.copyOf(warnings);
    }

    /**
     * The library modes only.
     *
     * @throws IllegalStateException if the library resource is missing or broken (a packaging error)
     */
    public static ModeCatalog library() {
        try {
            return load(List.of());
        } catch (InvalidInputException e) {
            throw new AssertionError("no user files, so no user problems", e);
        }
    }

    /**
     * The library modes plus those of {@code userFiles} (read in order; not null, may be empty).
     *
     * @throws IllegalStateException if the library resource is missing or broken (a packaging error)
     * @throws InvalidInputException with the problems of all files together, when any file breaks a rule or two
     *                               user files define the same name
     */
    public static ModeCatalog load(List<Path> userFiles) throws InvalidInputException {
        ModeFile libraryFile = Library.FILE;
        Map<String, Mode> modes = new LinkedHashMap<>();
        Map<String, ExternalMode> externals = new LinkedHashMap<>();
        Map<String, String> descriptions = new HashMap<>(libraryFile.descriptions());
        Map<String, Location> libraryAt = new HashMap<>();
        List<Entry> library = new ArrayList<>();
        for (Mode mode : libraryFile.modes().modes()) {
            modes.put(mode.name(), mode);
            libraryAt.put(mode.name(), mode.at());
            library.add(new Entry(mode.name(), libraryFile.description(mode.name()).orElse("")));
        }
        for (ExternalMode external : libraryFile.modes().externals()) {
            externals.put(external.name(), external);
            libraryAt.put(external.name(), external.at());
            library.add(new Entry(external.name(), ""));
        }

        List<Problem> errors = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        Map<String, Location> userAt = new HashMap<>();
        org.dyper.patch.build.Sha256 read = new org.dyper.patch.build.Sha256().addItem("dyper-modes-1");
        for (Path file : userFiles) {
            ModeFile user;
            try {
                byte[] bytes;
                try {
                    bytes = java.nio.file.Files.readAllBytes(file);
                } catch (java.io.IOException e) {
                    throw new InvalidInputException(List.of(Problem.error(new Location(file.toString(), 0, 0), "FILE",
                            "cannot read: " + e.getClass().getSimpleName() + ": " + e.getMessage())));
                }
                read.addItem(file.toAbsolutePath().toString()).add(bytes);
                user = ModeReader.readFile(file.toString(), new java.io.ByteArrayInputStream(bytes));
            } catch (InvalidInputException e) {
                errors.addAll(e.problems());
                continue;
            }
            List<Definition> definitions = new ArrayList<>();
            user.modes().modes().forEach(m -> definitions.add(new Definition(m.name(), m.at(), "DYPATCH_MODE", m, null)));
            user.modes().externals().forEach(x -> definitions.add(new Definition(x.name(), x.at(), "DYPATCH_EXTERNAL", null, x)));
            for (Definition d : definitions) {
                Location first = userAt.putIfAbsent(d.name, d.at);
                if (first != null) {
                    errors.add(Problem.error(d.at, d.element, "duplicate mode NAME='" + d.name + "'; also defined at " + first));
                    continue;
                }
                Location replaced = libraryAt.get(d.name);
                if (replaced != null) {
                    warnings.add(Problem.warning(d.at, d.element, "mode '" + d.name
                            + "' replaces the library mode of the same name (" + replaced + ")"));
                }
                modes.remove(d.name);
                externals.remove(d.name);
                descriptions.remove(d.name);
                if (d.mode != null) {
                    modes.put(d.name, d.mode);
                    user.description(d.name).ifPresent(text -> descriptions.put(d.name, text));
                } else {
                    externals.put(d.name, d.external);
                }
            }
        }
        if (!errors.isEmpty()) {
            List<Problem> all = new ArrayList<>(errors);
            all.addAll(warnings);
            throw new InvalidInputException(all);
        }
        for (ExternalMode e : new java.util.TreeMap<>(externals).values()) {
            read.addItem("external " + e.name() + " " + e.className() + " " + e.jar());
            if (e.jar() != null) {
                try {
                    org.dyper.patch.build.TreeFingerprint.describe(Path.of(e.jar()), read::addItem);
                } catch (java.io.IOException | RuntimeException x) {
                    read.addItem("unreadable " + x);
                }
            }
        }
        return new ModeCatalog(modes, externals, descriptions, library, warnings, read.hex(32));
    }

    private record Definition(String name, Location at, String element, Mode mode, ExternalMode external) {}

    /** The library is parsed once, on first use; its records are immutable. */
    private static final class Library {
        static final ModeFile FILE;

        static {
            try {
                FILE = readLibrary();
            } catch (InvalidInputException e) {
                throw new IllegalStateException("the Dyper mode library is broken:\n" + e.getMessage(), e);
            }
        }
    }

    private static ModeFile readLibrary() throws InvalidInputException {
        try (InputStream in = ModeCatalog.class.getClassLoader().getResourceAsStream(LIBRARY_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + LIBRARY_RESOURCE + " is missing from the class path");
            }
            return ModeReader.readFile(LIBRARY_RESOURCE, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The DYPATCH_MODE called {@code name} (case-sensitive), if any. */
    public Optional<Mode> mode(String name) {
        return Optional.ofNullable(modes.get(name));
    }

    /** The DYPATCH_EXTERNAL called {@code name} (case-sensitive), if any. */
    public Optional<ExternalMode> external(String name) {
        return Optional.ofNullable(externals.get(name));
    }

    /** The DESCRIPTION of mode {@code name}, if it has one. */
    public Optional<String> description(String name) {
        return Optional.ofNullable(descriptions.get(name));
    }

    /** Every name a PATCH may use as MODE, sorted. */
    public Set<String> names() {
        TreeSet<String> names = new TreeSet<>(modes.keySet());
        names.addAll(externals.keySet());
        return Collections.unmodifiableSet(names);
    }

    /** The library's modes in file order, with their descriptions, for {@code --help}. */
    public List<Entry> libraryModes() {
        return library;
    }

    /**
     * What tells this catalog from another, for caches: the user mode files by path and the bytes that were read, and
     * each external mode's jar by its {@code TreeFingerprint}. The library's modes are Dyper's own code (its jar).
     */
    public String fingerprint() {
        return fingerprint;
    }

    /** Warnings found while loading: user modes that replace library modes, each at the user's definition. */
    public List<Problem> warnings() {
        return warnings;
    }
}
