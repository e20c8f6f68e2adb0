package org.dyper.patch.aspectj;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;

/**
 * Hands out the integer ids generated code passes as METHODID, CLASSID, REFMETHODID and REFCLASSID, dense from 1
 * in the order sites are first used, and writes the site table that names them.
 */
final class SiteIdTable {
    private final Map<String, Integer> byKey = new LinkedHashMap<>();
    private final StringBuilder table = new StringBuilder();

    int method(MethodInfo m) {
        return method(m.owner(), m.name(), m.descriptor());
    }

    int callee(CallInfo c) {
        return method(c.owner(), c.name(), c.descriptor());
    }

    int type(String className) {
        return byKey.computeIfAbsent("C " + className, k -> add("CLASS\t" + className + "\t\t"));
    }

    /** A field, as the field join points' REFMETHODID names it. */
    int field(org.dyper.patch.scan.FieldInfo f) {
        return byKey.computeIfAbsent("F " + f.owner() + "." + f.name(), k -> add("FIELD\t" + f.owner() + "\t"
                + f.name() + "\t" + f.type()));
    }

    /** A type that is not a scanned class, such as an array type ({@code int[]}). */
    int typeName(String javaType) {
        return byKey.computeIfAbsent("T " + javaType, k -> add("TYPE\t" + javaType + "\t\t"));
    }

    int method(String owner, String name, String descriptor) {
        return byKey.computeIfAbsent("M " + owner + "." + name + descriptor, k -> add("METHOD\t" + owner + "\t" + name
                + "\t" + String.join(",", Types.parameterTypes(descriptor))));
    }

    /**
     * Basic block {@code block} of a method, with the source line of its first instruction (0 when unknown):
     * {@code id BLOCK class method parameters block line}.
     */
    int block(MethodInfo m, int block, int line) {
        return byKey.computeIfAbsent("B " + m.owner() + "." + m.name() + m.descriptor() + " " + block, k -> add("BLOCK\t"
                + m.owner() + "\t" + m.name() + "\t" + String.join(",", m.parameterTypes()) + "\t" + block + "\t"
                + line));
    }

    private int add(String line) {
        int id = byKey.size() + 1;
        table.append(id).append('\t').append(line).append('\n');
        return id;
    }

    int size() {
        return byKey.size();
    }

    /** One line per id: {@code id TAB KIND TAB class TAB method TAB parameters}. */
    String table() {
        return "# Dyper site table: id\tkind\tclass\tmethod\tparameters\n" + table;
    }
}
