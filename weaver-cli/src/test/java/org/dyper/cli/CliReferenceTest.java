package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/cli.md, the reference, names every command and every option each one accepts, and no other. */
class CliReferenceTest extends CliFixture {
    private static final Path REFERENCE = Path.of("").toAbsolutePath().getParent().resolve("docs/cli.md");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z-]*");
    /** An option line of a command's help: {@code   -h,--help   show this help}, {@code      --in <JAR|DIR>  ...}. */
    private static final Pattern HELP_OPTION = Pattern.compile("^ {2,}(?:-[a-z],)?(--[a-z][a-z-]*)");

    /** The commands of {@code dyper --help}, in its order. */
    private static List<String> commands() {
        List<String> names = new ArrayList<>();
        boolean listing = false;
        for (String line : dyper("--help").out().split("\n")) {
            if (line.startsWith("Usage:")) {
                listing = true;
            } else if (listing && line.startsWith("  ") && !line.isBlank()) {
                names.add(line.strip().split(" ")[0]);
            } else if (listing && line.startsWith("Exit codes")) {
                break;
            }
        }
        return names;
    }

    /** Each {@code ## dyper NAME} section's options: those in the first cell of its table's rows. */
    private static Map<String, TreeSet<String>> documented() throws IOException {
        Map<String, TreeSet<String>> sections = new TreeMap<>();
        TreeSet<String> current = null;
        for (String line : Files.readAllLines(REFERENCE)) {
            if (line.startsWith("## ")) {
                current = null;
                if (line.startsWith("## dyper ")) {
                    current = new TreeSet<>();
                    sections.put(line.substring("## dyper ".length()).strip(), current);
                }
            } else if (current != null && line.startsWith("| `")) {
                Matcher m = OPTION.matcher(line.substring(0, line.indexOf('|', 1)));
                while (m.find()) {
                    current.add(m.group());
                }
            }
        }
        return sections;
    }

    private static TreeSet<String> accepted(String command) {
        TreeSet<String> options = new TreeSet<>();
        for (String line : dyper("help", command).out().split("\n")) {
            Matcher m = HELP_OPTION.matcher(line);
            if (m.find()) {
                options.add(m.group(1));
            }
        }
        return options;
    }

    @Test
    void everyCommandAndEveryOptionIsInTheReference() throws IOException {
        List<String> commands = commands();
        assertEquals(List.of("generate", "weave", "run", "ask", "ctl", "patchd", "report", "ui", "whatif", "classpath",
                "modes", "events", "export"), commands);
        Map<String, TreeSet<String>> documented = documented();
        assertEquals(new TreeSet<>(commands), documented.keySet(), "a section ## dyper NAME per command");
        for (String command : commands) {
            TreeSet<String> accepted = accepted(command);
            assertEquals(true, accepted.contains("--help"), "dyper help " + command + " lists its options");
            assertEquals(accepted, documented.get(command), "docs/cli.md's options of dyper " + command);
        }
    }
}
