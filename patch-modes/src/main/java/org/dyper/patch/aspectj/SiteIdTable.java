package org.dyper.patch.aspectj;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;
import org.dyper.runtime.SiteTableFormat;

/**
 * Hands out the integer ids generated code passes as METHODID, CLASSID, REFMETHODID and REFCLASSID, dense from 1
 * in the order sites are first used, and writes the site table that names them ({@link SiteTableFormat}).
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
        return byKey.computeIfAbsent("C " + className, k -> add(SiteTableFormat.CLASS, className, "", ""));
    }

    /** A field, as the field join points' REFMETHODID names it. */
    int field(org.dyper.patch.scan.FieldInfo f) {
        return byKey.computeIfAbsent("F " + f.owner() + "." + f.name(), k -> add(SiteTableFormat.FIELD, f.owner(),
                f.name(), f.type()));
    }

    /** A type that is not a scanned class, such as an array type ({@code int[]}). */
    int typeName(String javaType) {
        return byKey.computeIfAbsent("T " + javaType, k -> add(SiteTableFormat.TYPE, javaType, "", ""));
    }

    int method(String owner, String name, String descriptor) {
        return byKey.computeIfAbsent("M " + owner + "." + name + descriptor, k -> add(SiteTableFormat.METHOD, owner,
                name, String.join(",", Types.parameterTypes(descriptor))));
    }

    /**
     * Basic block {@code block} of a method, with the source line of its first instruction (0 when unknown):
     * {@code id BLOCK class method parameters block line}.
     */
    int block(MethodInfo m, int block, int line) {
        return byKey.computeIfAbsent("B " + m.owner() + "." + m.name() + m.descriptor() + " " + block,
                k -> add(SiteTableFormat.BLOCK, m.owner(), m.name(), String.join(",", m.parameterTypes()),
                        Integer.toString(block), Integer.toString(line)));
    }

    private int add(String kind, String... fields) {
        int id = byKey.size() + 1;
        table.append(SiteTableFormat.line(id, kind, fields)).append('\n');
        return id;
    }

    int size() {
        return byKey.size();
    }

    /** One line per id: {@code id TAB KIND TAB class TAB method TAB parameters}. */
    String table() {
        return SiteTableFormat.HEADER + "\n" + table;
    }
}
