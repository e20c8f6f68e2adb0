package org.dyper.patch.xml;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Update;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.model.WhenCase;

/**
 * Reads a DYPATCH patch model: a {@code MODEL} root holding {@code FOR} elements, each holding {@code PATCH}es with
 * optional {@code WHEN}s. Every rule broken anywhere in the file is reported in one {@link InvalidInputException}.
 * Whether a mode exists, or the generator supports a WHAT, is checked later, by the generator.
 * The grammar is documented in {@code org/dyper/patch/xsd/dypatch-model.xsd}.
 */
public final class ModelReader {
    private ModelReader() {}

    /** Reads the model file at {@code file}; an unreadable file is reported as a problem too. */
    public static Model read(Path file) throws InvalidInputException {
        return SecureXml.read(file, ModelReader::read);
    }

    /** Reads a model from {@code in}; {@code fileName} is used in locations. Does not close {@code in}. */
    public static Model read(String fileName, InputStream in) throws InvalidInputException {
        Checker check = new Checker();
        // each FOR is read as soon as its end tag is, and its elements dropped: a model of many FORs never has its
        // whole tree in memory; the FORs' problems follow the root's, as in the file
        Checker forCheck = new Checker();
        List<ForSpec> fors = new ArrayList<>();
        XmlElement root = SecureXml.parse(fileName, in, check.problems, (model, child) -> {
            if (!model.foreign && model.name.equals("MODEL") && forCheck.known(model, child, "FOR")) {
                fors.add(forSpec(child, forCheck));
            }
        });
        if (root == null) {
            throw new InvalidInputException(check.problems);
        }
        if (root.foreign || !root.name.equals("MODEL")) {
            check.error(root, "the root element of a model file must be MODEL");
            throw new InvalidInputException(check.problems);
        }
        check.attributes(root, "NAME");
        String name = check.required(root, "NAME");
        if (name != null && !Names.isModeName(name)) {
            check.error(root, "NAME='" + name + "' is not a valid model name"
                    + " (a letter or '_', then letters, digits, '_', '-' or '.')");
        }
        check.problems.addAll(forCheck.problems);
        if (!check.problems.isEmpty()) {
            throw new InvalidInputException(check.problems);
        }
        return new Model(name, fors, root.at);
    }

    private static ForSpec forSpec(XmlElement e, Checker check) {
        check.attributes(e, "CLASS", "METHOD", "UPDATE");
        String className = check.required(e, "CLASS");
        if (className != null && !Names.isClassPattern(className)) {
            check.error(e, "CLASS='" + className + "' is not a Java class name or pattern"
                    + " (identifiers separated by '.'; '*' matches any characters)");
        }
        String method = check.required(e, "METHOD");
        if (method != null && !Names.isMethodPattern(method)) {
            check.error(e, "METHOD='" + method + "' is not a method name or pattern"
                    + " (an identifier, new or <init> for constructors; '*' matches any characters), optionally with"
                    + " a parameter list such as (int,java.lang.String) or (String,*)");
        }
        Update update = check.enumValue(e, "UPDATE", check.optional(e, "UPDATE"), Update.class);
        if (update == null && !e.attributes.containsKey("UPDATE")) {
            update = Update.ADD;
        }
        List<Patch> patches = new ArrayList<>();
        for (XmlElement child : e.children) {
            if (check.known(e, child, "PATCH")) {
                patches.add(patch(child, check));
            }
        }
        if (patches.isEmpty() && update == Update.ADD && e.children.isEmpty()) {
            check.error(e, "a FOR with UPDATE='ADD' and no PATCH does nothing;"
                    + " add a PATCH, or write UPDATE='NEW' to clear the patches of these methods");
        }
        return new ForSpec(className, method, update, patches, e.at);
    }

    private static Patch patch(XmlElement e, Checker check) {
        check.attributes(e, "WHAT", "MODE");
        What what = check.enumValue(e, "WHAT", check.required(e, "WHAT"), What.class);
        String mode = check.required(e, "MODE");
        if (mode != null && !Names.isModeName(mode)) {
            check.error(e, "MODE='" + mode + "' is not a valid mode name"
                    + " (a letter or '_', then letters, digits, '_', '-' or '.')");
        }
        List<When> whens = new ArrayList<>();
        for (XmlElement child : e.children) {
            if (check.known(e, child, "WHEN")) {
                whens.add(when(child, check));
            }
        }
        return new Patch(what, mode, whens, e.at);
    }

    private static When when(XmlElement e, Checker check) {
        check.attributes(e, "CASE", "ARG");
        check.noChildren(e);
        WhenCase kind = check.enumValue(e, "CASE", check.required(e, "CASE"), WhenCase.class);
        String arg = check.required(e, "ARG");
        if (kind != null && arg != null) {
            String needs = switch (kind) {
                case FIELD -> Names.isClassPattern(arg) ? null : "a field name or pattern, optionally qualified (Type.field)";
                case BLOCK -> Names.isIntAtLeast(arg, 0) ? null : "an instruction number (0 or more)";
                case CLASS -> Names.isTypePattern(arg) ? null
                        : "a Java class name or pattern, or an array type such as int[] or java.lang.String[][]";
                case METHOD -> Names.isQualifiedMethodPattern(arg) ? null
                        : "a method name or pattern, optionally qualified (Type.method)";
            };
            if (needs != null) {
                check.error(e, "ARG='" + arg + "' is not " + needs + " as CASE='" + kind + "' needs");
            }
        }
        return new When(kind, arg, e.at);
    }
}
