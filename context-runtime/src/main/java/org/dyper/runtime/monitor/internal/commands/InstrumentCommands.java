package org.dyper.runtime.monitor.internal.commands;

import java.util.List;
import org.dyper.runtime.instrument.PatchRefused;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.PatchSetFiles;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.w3c.dom.Element;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.monitor.internal.detailing.Detailer;
import org.dyper.runtime.wire.Xml;

/**
 * The monitor's INSTRUMENT and INSTRUMENTED commands, a front end to {@link RuntimePatcher}:
 * {@code <MODEL NAME INSERT><PATCH MODEL ID SITES>...</PATCH></MODEL>} inserts the patch set a DYPATCH PATCH reply
 * names ({@link PatchSetFiles}; files on this machine, or their bytes inline), with the question table its code
 * answers to in {@code <QUESTIONS>} (the compiled questions of {@code dyper ctl PID ask}), {@code INSERT='FALSE'} removes,
 * and INSTRUMENTED lists what is patched. Formats in docs/monitor.md.
 */
public final class InstrumentCommands {
    private final Monitor m;

    InstrumentCommands(Monitor m) {
        this.m = m;
    }

    private static RuntimePatcher patcher(String command) {
        RuntimePatcher p = RuntimePatcher.get();
        if (p == null) {
            throw new IllegalArgumentException(command + ": this JVM's monitor has no Instrumentation (it was not "
                    + "started as a javaagent), so it cannot patch classes");
        }
        return p;
    }

    String instrument(Element data) {
        if (data == null || !data.getTagName().equals("MODEL")) {
            throw new IllegalArgumentException("INSTRUMENT expects <MODEL NAME INSERT>"
                    + (data == null ? "" : ", not <" + data.getTagName() + ">"));
        }
        String name = Xml.attr(data, "NAME");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("INSTRUMENT: <MODEL> needs a NAME");
        }
        String insertText = Xml.attr(data, "INSERT");
        Boolean insert = insertText == null ? Boolean.TRUE : Xml.flag(insertText);
        if (insert == null) {
            throw new IllegalArgumentException("INSTRUMENT: INSERT is a flag (true/false, t/f, 1/0), not '"
                    + insertText + "'");
        }
        RuntimePatcher patcher = patcher("INSTRUMENT");
        try {
            if (!insert) {
                RuntimePatcher.Removed r = patcher.remove(name.trim());
                return m.reply("<PATCH TIME='" + millis(r.nanos()) + "' NANOS='" + r.nanos() + "' MODEL='"
                        + Xml.esc(r.model()) + "' CLASSES='" + r.classes() + "'/>");
            }
            Element questions = Xml.child(data, "QUESTIONS");
            if (questions != null) {
                data.removeChild(questions);
            }
            PatchSet set = read(name.trim(), data);
            RuntimePatcher.Inserted i;
            synchronized (m.detailer.patching) {
                if (!set.model().equals(Detailer.MODEL)) {
                    m.detailer.stepAside();
                }
                // the questions' table before their code: the code finds its question by index
                Runnable undo = questions == null ? null
                        : org.dyper.runtime.ask.Questions.define(questions.getTextContent());
                try {
                    i = patcher.insert(set);
                } catch (PatchRefused | RuntimeException e) {
                    if (undo != null) {
                        undo.run();
                    }
                    throw e;
                }
            }
            StringBuilder x = new StringBuilder("<PATCH TIME='").append(millis(i.nanos())).append("' NANOS='")
                    .append(i.nanos()).append("' REDEFINE_NANOS='").append(i.redefineNanos()).append("' MODEL='")
                    .append(Xml.esc(set.model())).append("' ID='").append(set.id()).append("' CLASSES='")
                    .append(i.classes()).append("' PENDING='").append(i.pending()).append("' RESTORED='")
                    .append(i.restored()).append('\'');
            if (i.phases() != null) {
                x.append(" PHASES='").append(Xml.esc(i.phases())).append('\'');
            }
            if (i.firstSiteId() <= i.lastSiteId()) {
                x.append(" FIRSTID='").append(i.firstSiteId()).append("' LASTID='").append(i.lastSiteId()).append('\'');
            }
            x.append('>');
            for (String note : i.notes()) {
                x.append("<NOTE>").append(Xml.text(note)).append("</NOTE>");
            }
            return m.reply(x.append("</PATCH>").toString());
        } catch (PatchRefused e) {
            throw new IllegalArgumentException("INSTRUMENT refused, nothing changed: " + e.getMessage());
        }
    }

    String instrumented() {
        return m.reply(patcher("INSTRUMENTED").statusXml());
    }

    /** The PATCHES section of a report, or nothing when this JVM cannot patch. */
    public static String reportSection() {
        RuntimePatcher p = RuntimePatcher.get();
        return p == null ? "" : p.statusXml();
    }

    private static long millis(long nanos) {
        return (nanos + 500_000) / 1_000_000;
    }

    /**
     * The patch set the MODEL element holds, its files read (bounded): the DYPATCH PATCH reply's {@code <PATCH>}
     * element as it came, or the seed's {@code <PATCH CLASS ORIG PATCH/>} lines ({@link PatchSetFiles}).
     */
    private static PatchSet read(String model, Element data) {
        try {
            List<Element> children = Xml.children(data, null);
            boolean whole = children.size() == 1 && children.get(0).getTagName().equals("PATCH")
                    && !children.get(0).hasAttribute("CLASS");
            PatchSetFiles files = whole ? PatchSetFiles.fromXml(children.get(0)) : PatchSetFiles.fromSeedLines(data);
            return files.load(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("INSTRUMENT: " + e.getMessage());
        }
    }
}
