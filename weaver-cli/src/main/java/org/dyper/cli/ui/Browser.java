package org.dyper.cli.ui;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens the page in the user's browser where there is one ({@code xdg-open}, {@code open}); else says so. */
final class Browser {
    private Browser() {
    }

    static void open(String url, PrintStream err) {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String opener = os.contains("mac") ? "open" : os.contains("win") ? null : "xdg-open";
        boolean display = os.contains("mac") || System.getenv("DISPLAY") != null
                || System.getenv("WAYLAND_DISPLAY") != null;
        if (opener == null || !display || !onPath(opener)) {
            err.println("dyper: ui: no browser to open here: open the address above");
            return;
        }
        try {
            // the address goes to the opener's arguments only, never to a log
            new ProcessBuilder(opener, url).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (java.io.IOException e) {
            err.println("dyper: ui: could not start " + opener + " (" + e.getMessage() + "): open the address above");
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
