package org.dyper.runtime.monitor;

import java.util.List;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * Reading a monitor's replies (and writing the XML of commands) for clients such as {@code dyper ctl}: the same
 * hardened parser the monitor reads commands with (the JDK's own, DTDs and external entities refused), so both ends
 * of the protocol read XML alike. Every method is static and thread-safe.
 */
public final class MonitorReply {
    private MonitorReply() {
    }

    /** A reply (or message) that is not well-formed XML, or has a DTD; the message says where, in one line. */
    public static final class MalformedException extends Exception {
        MalformedException(String message) {
            super(message, null, false, false);
        }
    }

    /** The root element of {@code xml} (a {@code DYPER_REPLY}, a pushed message, a command). Never null. */
    public static Element parse(String xml) throws MalformedException {
        try {
            return Xml.parse(xml);
        } catch (Xml.BadXml e) {
            throw new MalformedException(e.getMessage());
        }
    }

    /** The first child element of {@code e} named {@code tag}; null when there is none (or {@code e} is null). */
    public static Element child(Element e, String tag) {
        return Xml.child(e, tag);
    }

    /** The child elements of {@code e} named {@code tag} (null: all), in order; empty when {@code e} is null. */
    public static List<Element> children(Element e, String tag) {
        return Xml.children(e, tag);
    }

    /** The attribute's value, or null when {@code e} has no such attribute. */
    public static String attribute(Element e, String name) {
        return Xml.attr(e, name);
    }

    /** A seed flag (T, t, true, 1, yes / F, f, false, 0, no; any case); null when it is none of them or null. */
    public static Boolean flag(String value) {
        return Xml.flag(value);
    }

    /** {@code s} escaped for a single-quoted attribute value (null: empty). */
    public static String escape(String s) {
        return Xml.esc(s);
    }

    /** {@code s} escaped for element text: only {@code & < >}; characters XML cannot carry become U+FFFD. */
    public static String escapeText(String s) {
        return Xml.text(s);
    }
}
