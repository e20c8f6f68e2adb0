package org.dyper.runtime.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import org.junit.jupiter.api.Test;

/** docs/events.md's table of event types is the registry's ({@link DyperEvents}), read from the classes. */
class EventsDocTest {
    private static final Path DOC = Path.of("..", "docs", "events.md");

    /** The table's rows as the classes say they must be. */
    static List<String> expectedRows() {
        List<String> rows = new ArrayList<>();
        for (Class<? extends jdk.jfr.Event> type : DyperEvents.types()) {
            String name = type.getAnnotation(Name.class).value();
            String kind = "(always on)";
            for (Map.Entry<String, List<String>> k : DyperEvents.KINDS.entrySet()) {
                if (k.getValue().contains(name)) {
                    kind = k.getKey();
                }
            }
            List<String> fields = new ArrayList<>();
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isPublic(f.getModifiers()) && !Modifier.isStatic(f.getModifiers())) {
                    fields.add("`" + f.getName() + "`");
                }
            }
            rows.add("| `" + name + "` | " + type.getAnnotation(Label.class).value() + " | "
                    + String.join(" / ", type.getAnnotation(Category.class).value()) + " | " + kind + " | "
                    + String.join(", ", fields) + " | " + type.getAnnotation(Description.class).value() + " |");
        }
        return rows;
    }

    @Test
    void theTableListsEveryTypeAsItsClassDescribesIt() throws Exception {
        List<String> lines = Files.readAllLines(DOC);
        int header = lines.indexOf("| name | label | category | kind | fields | description |");
        assertTrue(header >= 0, "docs/events.md has no table header");
        List<String> rows = new ArrayList<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(lines.get(i));
        }
        assertEquals(String.join("\n", expectedRows()), String.join("\n", rows),
                "docs/events.md's table (first the rows it should have)");
    }

    @Test
    void theDocNamesTheVersionAndEveryKind() throws Exception {
        String doc = Files.readString(DOC);
        assertTrue(doc.contains("version **" + DyperEvents.VERSION + "**"), "docs/events.md names the version");
        for (String kind : DyperEvents.KINDS.keySet()) {
            assertTrue(doc.contains("| `" + kind + "` |"), "docs/events.md's kinds table lacks " + kind);
        }
        assertEquals(Arrays.asList("method", "call", "allocation", "field", "user", "figures"), List.copyOf(DyperEvents.KINDS.keySet()));
    }
}
