package org.dyper.runtime.monitor;

import org.dyper.runtime.wire.Frames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** The public reply parser and transport that clients outside the runtime (the CLI) use. */
class MonitorReplyTest {
    @Test
    void aReplyIsReadIntoElements() throws Exception {
        Element root = MonitorReply.parse("<DYPER_REPLY ID='42'><ERROR>no such VAR</ERROR><VAR NAME='A' VALUE='1'/>"
                + "<VAR NAME='B' VALUE='2'/></DYPER_REPLY>");
        assertEquals("DYPER_REPLY", root.getTagName());
        assertEquals("no such VAR", MonitorReply.child(root, "ERROR").getTextContent());
        assertNull(MonitorReply.child(root, "MONITOR_REPORT"));
        assertNull(MonitorReply.child(null, "ERROR"));
        assertEquals(List.of("A", "B"), MonitorReply.children(root, "VAR").stream().map(v -> v.getAttribute("NAME"))
                .toList());
        assertEquals(3, MonitorReply.children(root, null).size());
        assertEquals(List.of(), MonitorReply.children(null, "VAR"));
        assertEquals("42", MonitorReply.attribute(root, "ID"));
        assertNull(MonitorReply.attribute(root, "PID"));
        assertEquals(Boolean.TRUE, MonitorReply.flag("T"));
        assertEquals(Boolean.FALSE, MonitorReply.flag("0"));
        assertNull(MonitorReply.flag("maybe"));
    }

    @Test
    void malformedRepliesAndDoctypesAreRefusedWithOneLine() {
        MonitorReply.MalformedException e = assertThrows(MonitorReply.MalformedException.class,
                () -> MonitorReply.parse("<DYPER_REPLY>"));
        assertTrue(e.getMessage().startsWith("malformed XML at line 1, column 14: "), e.getMessage());
        e = assertThrows(MonitorReply.MalformedException.class, () -> MonitorReply.parse(
                "<!DOCTYPE r [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><r>&x;</r>"));
        assertTrue(e.getMessage().endsWith("DOCTYPE is not allowed (no DTDs, no entities)"), e.getMessage());
    }

    @Test
    void escapingRoundTrips() throws Exception {
        String nasty = "a'b\"c<d>&e";
        assertEquals("a&apos;b&quot;c&lt;d&gt;&amp;e", MonitorReply.escape(nasty));
        assertEquals("a'b\"c&lt;d&gt;&amp;e", MonitorReply.escapeText(nasty));
        Element r = MonitorReply.parse("<R A='" + MonitorReply.escape(nasty) + "'>" + MonitorReply.escapeText(nasty)
                + "</R>");
        assertEquals(nasty, r.getAttribute("A"));
        assertEquals(nasty, r.getTextContent());
        assertEquals("", MonitorReply.escape(null));
    }

    @Test
    void framesRoundTripAndABadFrameIsNamed() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Frames.write(out, "<DYPER COMMAND='PING'/>");
        assertEquals("23\n<DYPER COMMAND='PING'/>", out.toString(StandardCharsets.UTF_8));
        assertEquals("<DYPER COMMAND='PING'/>", Frames.read(new ByteArrayInputStream(out.toByteArray()),
                Frames.MAX_MESSAGE, null));
        assertNull(Frames.read(new ByteArrayInputStream(new byte[0]), 100, null));
        assertThrows(Frames.FrameException.class, () -> Frames.read(
                new ByteArrayInputStream("99999\n<x/>".getBytes(StandardCharsets.UTF_8)), 100, null));
    }
}
