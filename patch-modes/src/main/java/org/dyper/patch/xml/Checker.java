package org.dyper.patch.xml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.dyper.patch.model.Location;
import org.dyper.patch.model.Problem;

/** Collects the problems of one file; the attribute and child checks every Dyper element shares. */
final class Checker {
    final List<Problem> problems = new ArrayList<>();

    void error(XmlElement e, String message) {
        problems.add(Problem.error(e.at, e.name, message));
    }

    void error(Location at, String element, String message) {
        problems.add(Problem.error(at, element, message));
    }

    /** Reports every attribute of {@code e} not in {@code allowed}, and any text directly inside {@code e}. */
    void attributes(XmlElement e, String... allowed) {
        List<String> names = Arrays.asList(allowed);
        for (String attribute : e.attributes.keySet()) {
            if (names.contains(attribute)) {
                continue;
            }
            String upper = attribute.toUpperCase(Locale.ROOT);
            if (names.contains(upper)) {
                error(e, "unknown attribute " + attribute + "; attribute names are upper case: " + upper);
            } else if (names.isEmpty()) {
                error(e, "unknown attribute " + attribute + "; " + e.name + " takes no attributes");
            } else {
                error(e, "unknown attribute " + attribute + " (allowed: " + String.join(", ", names) + ")");
            }
        }
        for (String attribute : e.foreignAttributes) {
            error(e, "unknown attribute " + attribute + "; Dyper attributes have no namespace");
        }
        if (e.text != null) {
            error(e.textAt, e.name, "text is not allowed here: '" + abbreviate(e.text) + "'");
        }
    }

    /** True if {@code child} is one of {@code allowed}; otherwise reports it as unknown inside {@code parent}. */
    boolean known(XmlElement parent, XmlElement child, String... allowed) {
        if (!child.foreign && Arrays.asList(allowed).contains(child.name)) {
            return true;
        }
        unknownChild(parent, child, allowed);
        return false;
    }

    void unknownChild(XmlElement parent, XmlElement child, String... allowed) {
        String upper = child.name.toUpperCase(Locale.ROOT);
        if (child.foreign) {
            error(child, "unknown element; Dyper elements have no namespace");
        } else if (allowed.length == 0) {
            error(child, "unknown element; " + parent.name + " has no child elements");
        } else if (Arrays.asList(allowed).contains(upper)) {
            error(child, "unknown element; element names are upper case: " + upper);
        } else {
            error(child, "unknown element in " + parent.name + " (allowed: " + String.join(", ", allowed) + ")");
        }
    }

    /** Reports every child of {@code e}; for elements that take none. */
    void noChildren(XmlElement e) {
        for (XmlElement child : e.children) {
            unknownChild(e, child);
        }
    }

    /** The value of a required attribute, or null after reporting it missing or empty. */
    String required(XmlElement e, String attribute) {
        String value = e.attributes.get(attribute);
        if (value == null) {
            error(e, "missing attribute " + attribute);
            return null;
        }
        if (value.isBlank()) {
            error(e, "attribute " + attribute + " is empty");
            return null;
        }
        return value.strip();
    }

    /** The value of an optional attribute, null when absent, or null after reporting it empty. */
    String optional(XmlElement e, String attribute) {
        String value = e.attributes.get(attribute);
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            error(e, "attribute " + attribute + " is empty; leave it out instead");
            return null;
        }
        return value.strip();
    }

    /** Parses an enum attribute value, ignoring case; null after reporting a value that is not a constant. */
    <E extends Enum<E>> E enumValue(XmlElement e, String attribute, String value, Class<E> type) {
        if (value == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        String all = Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
        error(e, attribute + "='" + value + "' is not one of " + all);
        return null;
    }

    static String abbreviate(String s) {
        String oneLine = s.replaceAll("\\s+", " ");
        return oneLine.length() <= 40 ? oneLine : oneLine.substring(0, 37) + "...";
    }
}
