package org.dyper.patch.xml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dyper.patch.model.Location;

/**
 * One element of a parsed Dyper XML file, kept with the position of its start tag so that validation, which runs
 * after parsing, can pin every problem to the element that caused it.
 */
final class XmlElement {
    final String name;
    /** Attributes in document order; only those without a namespace (the Dyper ones). */
    final Map<String, String> attributes = new LinkedHashMap<>();
    /** Attributes in a namespace other than xsi, which Dyper does not define. */
    final List<String> foreignAttributes = new ArrayList<>();
    /** True when the element itself is in a namespace; Dyper elements never are. */
    final boolean foreign;
    final Location at;
    final List<XmlElement> children = new ArrayList<>();
    /** The first non-blank text directly inside the element, or null. */
    String text;
    Location textAt;

    XmlElement(String name, boolean foreign, Location at) {
        this.name = name;
        this.foreign = foreign;
        this.at = at;
    }
}
