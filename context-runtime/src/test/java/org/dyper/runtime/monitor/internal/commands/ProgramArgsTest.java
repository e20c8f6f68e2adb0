package org.dyper.runtime.monitor.internal.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** WHORU's program arguments: exact from the process's arguments, the JVM's joined record when they disagree. */
class ProgramArgsTest {
    private static List<String> args(String command, String... argv) {
        return Commands.programArgs(argv, command);
    }

    @Test
    void argumentsWithBlanksAndEmptyOnesStayWhole() {
        assertEquals(List.of("one", "two words", "", "x"), args("app.Main one two words  x",
                "-Dk=v", "-cp", "a.jar:b dir/c.jar", "-javaagent:d.jar=x", "app.Main", "one", "two words", "", "x"));
    }

    @Test
    void afterJarOrModuleOrNothing() {
        assertEquals(List.of("a b"), args("app.jar a b", "-Xmx64m", "-jar", "app.jar", "a b"));
        assertEquals(List.of("1"), args("mod/app.Main 1", "-p", "mods", "-m", "mod/app.Main", "1"));
        assertEquals(List.of("1"), args("mod/app.Main 1", "--module=mod/app.Main", "1"));
        assertEquals(List.of(), args("app.Main", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "app.Main"));
    }

    @Test
    void withoutTheProcessArgumentsOrWhenTheyDisagreeTheRecordIsSplit() {
        assertEquals(List.of("one", "two"), Commands.programArgs(null, "app.Main one two"));
        assertEquals(List.of("one", "two"), args("app.Main one two", "app.Main", "something", "else"));
        assertEquals(List.of("x", "y"), args("app.Main x y", "@argfile", "app.Main", "x y"));
        assertEquals(List.of(), args("", "-version"));
    }
}
