package org.dyper.patch.xml;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dyper.patch.model.Arg;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.Condition;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.model.ExternalMode;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Mode;
import org.dyper.patch.model.ModeSet;
import org.dyper.patch.model.Signature;

/**
 * Reads a DYPATCH mode file: a {@code DYPATCH} root holding {@code DYPATCH_MODE} and {@code DYPATCH_EXTERNAL}
 * elements, or a single {@code DYPATCH_MODE} (or {@code DYPATCH_EXTERNAL}) as the root. Every rule broken anywhere in
 * the file is reported in one {@link InvalidInputException}. The grammar is documented in
 * {@code org/dyper/patch/xsd/dypatch-modes.xsd}; this reader also checks what a schema cannot express (which
 * attributes each TYPE needs, argument counts against the signature, the CONTEXT attribute, duplicate names).
 */
public final class ModeReader {
    static final String ROOT = "DYPATCH";
    static final String MODE = "DYPATCH_MODE";
    static final String EXTERNAL = "DYPATCH_EXTERNAL";

    private ModeReader() {}

    /** Reads the mode file at {@code file}; an unreadable file is reported as a problem too. */
    public static ModeSet read(Path file) throws InvalidInputException {
        return readFile(file).modes();
    }

    /** Reads a mode file from {@code in}; {@code fileName} is used in locations. Does not close {@code in}. */
    public static ModeSet read(String fileName, InputStream in) throws InvalidInputException {
        return readFile(fileName, in).modes();
    }

    /** As {@link #read(Path)}, also returning the DESCRIPTION of each mode. */
    public static ModeFile readFile(Path file) throws InvalidInputException {
        return SecureXml.read(file, ModeReader::readFile);
    }

    /** As {@link #read(String, InputStream)}, also returning the DESCRIPTION of each mode. */
    public static ModeFile readFile(String fileName, InputStream in) throws InvalidInputException {
        Checker check = new Checker();
        XmlElement root = SecureXml.parse(fileName, in, check.problems);
        if (root == null) {
            throw new InvalidInputException(check.problems);
        }
        Builder builder = new Builder(check);
        if (!root.foreign && root.name.equals(ROOT)) {
            check.attributes(root);
            for (XmlElement child : root.children) {
                if (check.known(root, child, MODE, EXTERNAL)) {
                    builder.element(child);
                }
            }
        } else if (!root.foreign && (root.name.equals(MODE) || root.name.equals(EXTERNAL))) {
            builder.element(root);
        } else {
            check.error(root, "the root element of a mode file must be DYPATCH, DYPATCH_MODE or DYPATCH_EXTERNAL");
        }
        if (!check.problems.isEmpty()) {
            throw new InvalidInputException(check.problems);
        }
        return new ModeFile(fileName, new ModeSet(builder.modes, builder.externals), builder.descriptions);
    }

    private static final class Builder {
        private final Checker check;
        final List<Mode> modes = new ArrayList<>();
        final List<ExternalMode> externals = new ArrayList<>();
        final Map<String, String> descriptions = new HashMap<>();
        private final Map<String, Location> defined = new LinkedHashMap<>();

        Builder(Checker check) {
            this.check = check;
        }

        void element(XmlElement e) {
            if (e.name.equals(MODE)) {
                mode(e);
            } else {
                external(e);
            }
        }

        private void name(XmlElement e, String name) {
            if (name == null) {
                return;
            }
            if (!Names.isModeName(name)) {
                check.error(e, "NAME='" + name + "' is not a valid mode name"
                        + " (a letter or '_', then letters, digits, '_', '-' or '.')");
                return;
            }
            Location first = defined.putIfAbsent(name, e.at);
            if (first != null) {
                check.error(e, "duplicate mode NAME='" + name + "'; first defined at " + first);
            }
        }

        private void external(XmlElement e) {
            check.attributes(e, "NAME", "CLASS", "JAR");
            check.noChildren(e);
            String name = check.required(e, "NAME");
            name(e, name);
            String className = check.required(e, "CLASS");
            if (className != null && !Names.isClassName(className)) {
                check.error(e, "CLASS='" + className + "' is not a Java class name");
            }
            String jar = check.optional(e, "JAR");
            externals.add(new ExternalMode(name, className, jar, e.at));
        }

        private void mode(XmlElement e) {
            check.attributes(e, "NAME", "CONTEXT", "DESCRIPTION");
            String name = check.required(e, "NAME");
            name(e, name);
            String context = check.optional(e, "CONTEXT");
            if (context != null && !Names.PRIMITIVES.contains(context) && !Names.isClassName(context)) {
                check.error(e, "CONTEXT='" + context + "' is not a Java class name or primitive type");
            }
            String description = check.optional(e, "DESCRIPTION");
            if (name != null && description != null) {
                descriptions.put(name, description.replaceAll("\\s+", " "));
            }
            List<Code> codes = new ArrayList<>();
            ContextUse use = new ContextUse();
            boolean instruction = false;
            for (XmlElement child : e.children) {
                if (!child.foreign && child.name.equals("INSTRUCTION")) {
                    instruction = true;
                    check.error(child, "not supported; only CODE TYPE='CALL' is supported");
                } else if (check.known(e, child, "CODE")) {
                    codes.add(code(child, use));
                }
            }
            if (codes.isEmpty() && !instruction) {
                check.error(e, "a mode needs at least one CODE");
            }
            if (use.first != null && e.attributes.get("CONTEXT") == null) {
                check.error(e, "mode " + (name == null ? "" : "'" + name + "' ") + "uses the context (" + use.what
                        + " at " + use.first + ") but has no CONTEXT attribute giving its type");
            }
            modes.add(new Mode(name, context, codes, e.at));
        }

        private Code code(XmlElement e, ContextUse use) {
            check.attributes(e, "TYPE", "CLASS", "METHOD", "SIGNATURE");
            String type = check.required(e, "TYPE");
            if (type != null) {
                if (type.equalsIgnoreCase("CALL")) {
                    type = "CALL";
                } else {
                    check.error(e, "TYPE='" + type + "' is not supported; only TYPE='CALL' is");
                }
            }
            String className = check.required(e, "CLASS");
            if (className != null && !Names.isClassName(className)) {
                check.error(e, "CLASS='" + className + "' is not a Java class name");
            }
            String method = check.required(e, "METHOD");
            if (method != null && !Names.isIdentifier(method)) {
                check.error(e, "METHOD='" + method + "' is not a Java method name");
            }
            String signatureText = check.required(e, "SIGNATURE");
            Signature signature = signatureText == null ? null
                    : Signatures.parse(signatureText, e.at, e.name, check.problems);

            List<Condition> conditions = new ArrayList<>();
            List<Arg> args = new ArrayList<>();
            Location returnAt = null;
            boolean returnsContext = false;
            for (XmlElement child : e.children) {
                if (!check.known(e, child, "CONDITION", "ARG", "RETURN")) {
                    continue;
                }
                switch (child.name) {
                    case "CONDITION" -> conditions.add(condition(child, use));
                    case "ARG" -> args.add(arg(child, use));
                    default -> {
                        if (returnAt != null) {
                            check.error(child, "a CODE may hold only one RETURN; the first is at " + returnAt);
                        } else {
                            returnAt = child.at;
                            returnsContext = returnElement(child, use);
                        }
                    }
                }
            }
            if (signature != null && signature.parameters().size() != args.size()) {
                int n = signature.parameters().size();
                check.error(e, "SIGNATURE='" + signature.text() + "' has " + n + (n == 1 ? " parameter" : " parameters")
                        + " but the CODE has " + args.size() + (args.size() == 1 ? " ARG" : " ARGs"));
            }
            if (signature != null && returnsContext && "void".equals(signature.returnType())) {
                check.error(e, "RETURN TYPE='CONTEXT' at " + returnAt + " needs a method that returns a value, but SIGNATURE='"
                        + signature.text() + "' returns void");
            }
            return new Code(type, className, method, signature, conditions, args, returnsContext, e.at);
        }

        /** Checks a RETURN; true when it is a valid RETURN TYPE='CONTEXT' (only then does the mode use a context). */
        private boolean returnElement(XmlElement e, ContextUse use) {
            check.attributes(e, "TYPE");
            check.noChildren(e);
            String type = check.required(e, "TYPE");
            if (type == null) {
                return false;
            }
            if (!type.equalsIgnoreCase("CONTEXT")) {
                check.error(e, "TYPE='" + type + "' is not supported; only TYPE='CONTEXT' is");
                return false;
            }
            use.note("RETURN TYPE='CONTEXT'", e.at);
            return true;
        }

        private Arg arg(XmlElement e, ContextUse use) {
            check.attributes(e, "TYPE", "VALUE");
            check.noChildren(e);
            ArgType type = check.enumValue(e, "TYPE", check.required(e, "TYPE"), ArgType.class);
            String value = e.attributes.containsKey("VALUE") ? e.attributes.get("VALUE").strip() : null;
            if (type == null) {
                return new Arg(null, value, e.at);
            }
            String needs = switch (type) {
                case INTEGER -> "an int";
                case FIELD -> "a field name";
                case LOCAL -> "a local variable number or name";
                case ARG -> "an argument number (1 or more)";
                default -> null;
            };
            if (needs == null) {
                if (value != null) {
                    check.error(e, "TYPE='" + type + "' takes no VALUE (found VALUE='" + value + "')");
                }
                if (type == ArgType.CONTEXT) {
                    use.note("ARG TYPE='CONTEXT'", e.at);
                }
                return new Arg(type, null, e.at);
            }
            if (value == null && type == ArgType.FIELD) {
                // no VALUE: the field a FIELD_ACCESS/FIELD_WRITE patch is about (checked by the generator)
                return new Arg(type, null, e.at);
            }
            if (value == null || value.isEmpty()) {
                check.error(e, "TYPE='" + type + "' needs a VALUE (" + needs + ")");
                return new Arg(type, null, e.at);
            }
            boolean ok = switch (type) {
                case INTEGER -> Names.isInt(value);
                case FIELD -> Names.isClassName(value);   // f, or Class.f for a static field of another class
                case LOCAL -> Names.isIntAtLeast(value, 0) || Names.isIdentifier(value);
                default -> Names.isIntAtLeast(value, 1);
            };
            if (!ok) {
                check.error(e, "VALUE='" + value + "' is not " + needs + " as TYPE='" + type + "' needs");
            }
            return new Arg(type, value, e.at);
        }

        private Condition condition(XmlElement e, ContextUse use) {
            check.attributes(e, "TYPE", "LVALUE", "RVALUE");
            check.noChildren(e);
            ConditionType type = check.enumValue(e, "TYPE", check.required(e, "TYPE"), ConditionType.class);
            String lvalue = e.attributes.containsKey("LVALUE") ? e.attributes.get("LVALUE").strip() : null;
            String rvalue = e.attributes.containsKey("RVALUE") ? e.attributes.get("RVALUE").strip() : null;
            if (type == null) {
                return new Condition(null, lvalue, rvalue, e.at);
            }
            String lneeds = switch (type) {
                case FIELD -> "a field name";
                case LOCAL -> "a local variable number or name";
                case ARG -> "an argument number (1 or more)";
                default -> null;
            };
            if (lneeds == null) {
                if (lvalue != null) {
                    check.error(e, "TYPE='" + type + "' takes no LVALUE (found LVALUE='" + lvalue + "')");
                    lvalue = null;
                }
            } else if (lvalue == null || lvalue.isEmpty()) {
                check.error(e, "TYPE='" + type + "' needs an LVALUE (" + lneeds + ")");
            } else {
                boolean ok = switch (type) {
                    case FIELD -> Names.isClassName(lvalue);
                    case LOCAL -> Names.isIntAtLeast(lvalue, 0) || Names.isIdentifier(lvalue);
                    default -> Names.isIntAtLeast(lvalue, 1);
                };
                if (!ok) {
                    check.error(e, "LVALUE='" + lvalue + "' is not " + lneeds + " as TYPE='" + type + "' needs");
                }
            }
            if (type == ConditionType.CONTEXT) {
                use.note("CONDITION TYPE='CONTEXT'", e.at);
                if (rvalue != null) {
                    check.error(e, "TYPE='CONTEXT' takes no RVALUE (found RVALUE='" + rvalue + "')");
                    rvalue = null;
                }
            } else if (rvalue == null || rvalue.isEmpty()) {
                check.error(e, "TYPE='" + type + "' needs an RVALUE (an int, NULL or NONNULL)");
            } else if (rvalue.equalsIgnoreCase("NULL") || rvalue.equalsIgnoreCase("NONNULL")) {
                rvalue = rvalue.toUpperCase(java.util.Locale.ROOT);
            } else if (!Names.isInt(rvalue)) {
                check.error(e, "RVALUE='" + rvalue + "' is not an int, NULL or NONNULL");
            }
            return new Condition(type, lvalue, rvalue, e.at);
        }
    }

    /** The first place a mode refers to its context, for the message when CONTEXT is missing. */
    private static final class ContextUse {
        String what;
        Location first;

        void note(String what, Location at) {
            if (first == null) {
                this.what = what;
                this.first = at;
            }
        }
    }
}
