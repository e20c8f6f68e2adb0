package org.dyper.cli;

import java.io.IOException;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * A monitor's reply as the CLI reads it, with the monitor's own hardened parser: its root element and the text of its
 * ERROR ({@code error}, null when there is none).
 */
record Reply(Element root, String error) {
    /** Parses {@code xml}; unreadable, it is an IOException saying "unreadable reply {@code what}: why". */
    static Reply of(String xml, String what) throws IOException {
        Element root;
        try {
            root = MonitorReply.parse(xml);
        } catch (Exception e) {
            throw new IOException("unreadable reply " + what + ": " + e.getMessage());
        }
        Element error = Xml.child(root, "ERROR");
        return new Reply(root, error == null ? null : error.getTextContent());
    }

    /** The root; an ERROR in it is a failure naming process {@code pid} (exit {@link ExitCode#COMMAND_FAILED}). */
    Element orFail(long pid) throws CommandFailure {
        if (error != null) {
            throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + ": " + error);
        }
        return root;
    }
}
