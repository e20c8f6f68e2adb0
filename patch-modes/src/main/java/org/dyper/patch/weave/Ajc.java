package org.dyper.patch.weave;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.aspectj.bridge.IMessage;
import org.aspectj.bridge.MessageHandler;

/**
 * Runs the AspectJ compiler in-process (never {@code Main.main}, which exits the JVM). Public for the run-time way
 * ({@code org.dyper.patch.runtime}), which weaves with it too.
 */
public final class Ajc {
    private Ajc() {}

    /** ajc's warnings, for callers that show them with {@code --verbose}. */
    public record Result(List<String> warnings, List<String> weaveInfo) {}

    public static Result run(List<String> args, String what) throws WeaveException {
        MessageHandler handler = new MessageHandler(true);
        handler.dontIgnore(IMessage.WEAVEINFO);
        // -proc:none: no annotation processing, whose set-up (walking the JDK image) cost a third of a small weave
        List<String> all = new ArrayList<>(List.of("-17", "-encoding", "UTF-8", "-proc:none", "-Xlint:ignore",
                "-showWeaveInfo"));
        all.addAll(args);
        new org.aspectj.tools.ajc.Main().run(all.toArray(String[]::new), handler);
        List<String> errors = new ArrayList<>();
        for (IMessage m : handler.getMessages(IMessage.ERROR, true)) {
            errors.add(format(m));
        }
        if (!errors.isEmpty()) {
            throw new WeaveException(what + " failed", errors);
        }
        List<String> warnings = List.of(handler.getMessages(IMessage.WARNING, false)).stream().map(Ajc::format)
                .collect(Collectors.toList());
        List<String> info = List.of(handler.getMessages(IMessage.WEAVEINFO, false)).stream()
                .map(IMessage::getMessage).collect(Collectors.toList());
        return new Result(warnings, info);
    }

    private static String format(IMessage m) {
        String where = m.getSourceLocation() == null || m.getSourceLocation().getSourceFile() == null ? ""
                : m.getSourceLocation().getSourceFile().getName() + ":" + m.getSourceLocation().getLine() + ": ";
        String text = m.getMessage();
        if (m.getThrown() != null) {
            text += " (" + m.getThrown() + ")";
        }
        return where + text;
    }

    public static String path(List<Path> entries) {
        return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
