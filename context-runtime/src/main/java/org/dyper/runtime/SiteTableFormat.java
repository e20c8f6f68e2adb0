package org.dyper.runtime;

/**
 * The site table's line format, written once here for both sides: Dyper's generator writes the table, and
 * {@link Sites#define} reads it. One line per id, fields separated by TAB, the id first, then the kind and its fields
 * (see {@link Sites#define} for what each kind holds); blank lines and lines starting with {@code #} are comments.
 */
public final class SiteTableFormat {
    /** A method: {@code className methodName parameters}. */
    public static final String METHOD = "METHOD";
    /** A class: {@code className}, two empty fields. */
    public static final String CLASS = "CLASS";
    /** A field: {@code className fieldName type}. */
    public static final String FIELD = "FIELD";
    /** A type that is not a scanned class, such as an array type: {@code typeName}, two empty fields. */
    public static final String TYPE = "TYPE";
    /** A basic block: {@code className methodName parameters block line}. */
    public static final String BLOCK = "BLOCK";
    /** The first line of a table the generator writes. */
    public static final String HEADER = "# Dyper site table: id\tkind\tclass\tmethod\tparameters";

    private SiteTableFormat() {
    }

    /** One line, without its line end: {@code id TAB kind TAB fields...}. */
    public static String line(int id, String kind, String... fields) {
        StringBuilder s = new StringBuilder().append(id).append('\t').append(kind);
        for (String f : fields) {
            s.append('\t').append(f);
        }
        return s.toString();
    }

    /**
     * The fields of a line (the id first; empty fields kept), or null for a blank or comment line. A trailing
     * {@code \r} (a table written with Windows line ends) is ignored.
     */
    public static String[] fields(String line) {
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        if (line.isBlank() || line.startsWith("#")) {
            return null;
        }
        return line.split("\t", -1);
    }
}
