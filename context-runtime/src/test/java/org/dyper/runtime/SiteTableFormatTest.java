package org.dyper.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The site table's line format, as the generator writes it and {@link Sites#define} reads it. */
class SiteTableFormatTest {
    @Test
    void linesAreTheIdTheKindAndItsFieldsTabSeparated() {
        assertEquals("7\tMETHOD\tcom.acme.Bank\ttransfer\tint,long",
                SiteTableFormat.line(7, SiteTableFormat.METHOD, "com.acme.Bank", "transfer", "int,long"));
        assertEquals("2\tCLASS\tcom.acme.Bank\t\t", SiteTableFormat.line(2, SiteTableFormat.CLASS, "com.acme.Bank", "",
                ""));
        assertEquals("3\tBLOCK\tcom.acme.Bank\taudit\t\t4\t17",
                SiteTableFormat.line(3, SiteTableFormat.BLOCK, "com.acme.Bank", "audit", "", "4", "17"));
    }

    @Test
    void fieldsKeepEmptyFieldsAndSkipCommentsBlankLinesAndCarriageReturns() {
        assertArrayEquals(new String[] {"2", "CLASS", "com.acme.Bank", "", ""},
                SiteTableFormat.fields("2\tCLASS\tcom.acme.Bank\t\t\r"));
        assertNull(SiteTableFormat.fields(SiteTableFormat.HEADER));
        assertNull(SiteTableFormat.fields("  "));
        assertNull(SiteTableFormat.fields("\r"));
    }

    @Test
    void whatTheFormatWritesSitesNames() {
        String table = SiteTableFormat.HEADER + "\n"
                + SiteTableFormat.line(900001, SiteTableFormat.METHOD, "com.acme.Bank", "transfer", "int,long") + "\n"
                + SiteTableFormat.line(900002, SiteTableFormat.FIELD, "com.acme.Bank", "total", "long") + "\n"
                + SiteTableFormat.line(900003, SiteTableFormat.TYPE, "int[]", "", "") + "\n"
                + SiteTableFormat.line(900004, SiteTableFormat.BLOCK, "com.acme.Bank", "audit", "", "4", "17") + "\n";
        assertEquals(0, org.dyper.runtime.internal.SiteTable.define(table), "malformed lines");
        assertEquals("com.acme.Bank.transfer(int,long)", org.dyper.runtime.internal.SiteTable.name(900001));
        assertEquals("com.acme.Bank.total", org.dyper.runtime.internal.SiteTable.name(900002));
        assertEquals("int[]", org.dyper.runtime.internal.SiteTable.name(900003));
        assertEquals("com.acme.Bank.audit() block 4 (line 17)", org.dyper.runtime.internal.SiteTable.name(900004));
    }
}
