package org.dyper.runtime.whatif;

import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The monitor's WHATIF command: reads the counters, then switches the experiment, in one step, so that consecutive
 * replies bracket one experiment exactly.
 *
 * <pre>{@code
 * <DYPER COMMAND='WHATIF'><WHATIF CANDIDATE='12' SPEEDUP='20' PROGRESS='7,8'/></DYPER>   start an experiment
 * <DYPER COMMAND='WHATIF'><WHATIF STOP='true' PROGRESS='7,8'/></DYPER>                  end experiments
 * <DYPER COMMAND='WHATIF'><WHATIF PROGRESS='7,8'/></DYPER>                              read only
 * }</pre>
 *
 * The reply, {@code <WHATIF NOW DELAY EPOCH RUNNING CANDIDATE PERMILLE PARKS PARKED_NS CREDITED_NS SKIPPED_CLINIT
 * SKIPPED_INTERRUPTED CANDIDATE_CALLS WAKEUPS PROGRESS_LOST LOOP_PARKS><PROGRESS ID COUNT LATENCY_COUNT
 * LATENCY_NS/>...<FLOW ARRIVALS ARRIVAL_NS DEPARTURES DEPARTURE_NS IN_FLIGHT MIN_IN_FLIGHT VNOW/></WHATIF>}, holds
 * the figures as
 * they were just before the switch: {@code NOW} is {@code System.nanoTime()} in the program, {@code DELAY} the global
 * delay in nanoseconds, {@code CANDIDATE}, {@code PERMILLE} and {@code EPOCH} the experiment that ran until then.
 */
public final class WhatIfControl {
    private WhatIfControl() {
    }

    /** The reply's body for the {@code <WHATIF>} element {@code e}; bad input is an IllegalArgumentException. */
    public static String answer(Element e) {
        if (e == null || !e.getTagName().equals("WHATIF")) {
            throw new IllegalArgumentException("WHATIF expects <WHATIF CANDIDATE SPEEDUP PROGRESS/> or"
                    + " <WHATIF STOP='true'/>" + (e == null ? "" : ", not <" + e.getTagName() + ">"));
        }
        int[] progress = ids(e, "PROGRESS");
        String candidate = Xml.attr(e, "CANDIDATE");
        String speedup = Xml.attr(e, "SPEEDUP");
        Boolean stop = Xml.attr(e, "STOP") == null ? Boolean.FALSE : Xml.flag(Xml.attr(e, "STOP"));
        if (stop == null) {
            throw new IllegalArgumentException("WHATIF STOP is a flag (true/false), not '" + Xml.attr(e, "STOP") + "'");
        }
        if (stop && (candidate != null || speedup != null)) {
            throw new IllegalArgumentException("WHATIF: STOP='true' takes no CANDIDATE or SPEEDUP");
        }
        if ((candidate == null) != (speedup == null)) {
            throw new IllegalArgumentException("WHATIF: CANDIDATE and SPEEDUP go together");
        }
        int c = candidate == null ? 0 : number(candidate, "CANDIDATE", WhatIf.NONE, Integer.MAX_VALUE);
        int s = speedup == null ? 0 : number(speedup, "SPEEDUP", 0, 100);
        synchronized (WhatIfControl.class) {
            String figures = figures(progress);
            if (stop) {
                WhatIf.stop();
            } else if (candidate != null) {
                WhatIf.start(c, s);
            }
            return figures;
        }
    }

    private static String figures(int[] progress) {
        long now = System.nanoTime();
        long delay = WhatIf.GLOBAL.get();
        StringBuilder x = new StringBuilder(256);
        for (int id : progress) {
            x.append("<PROGRESS ID='").append(id).append("' COUNT='").append(WhatIf.progressCount(id))
                    .append("' LATENCY_COUNT='").append(WhatIf.latencyCount(id)).append("' LATENCY_NS='")
                    .append(WhatIf.latencyNanos(id)).append("'/>");
        }
        return "<WHATIF NOW='" + now + "' DELAY='" + delay + "' EPOCH='" + WhatIf.epoch() + "' RUNNING='"
                + WhatIf.running() + "' CANDIDATE='" + WhatIf.selected() + "' PERMILLE='" + WhatIf.permille()
                + "' PARKS='" + WhatIf.PARKS.get() + "' PARKED_NS='" + WhatIf.PARKED_NS.get() + "' CREDITED_NS='"
                + WhatIf.CREDITED_NS.get() + "' SKIPPED_CLINIT='" + WhatIf.SKIPPED_CLINIT.get()
                + "' SKIPPED_INTERRUPTED='" + WhatIf.SKIPPED_INTERRUPTED.get() + "' CANDIDATE_CALLS='"
                + WhatIf.CANDIDATE_CALLS.get() + "' WAKEUPS='" + WhatIf.WAKEUPS.get() + "' PROGRESS_LOST='"
                + WhatIf.PROGRESS_LOST.get() + "' LOOP_PARKS='" + WhatIf.LOOP_PARKS.get() + "'>" + x + flow()
                + "</WHATIF>";
    }

    /** The flow through a latency pair (Little's law): {@code <FLOW .../>}, see {@link WhatIf#flow}. */
    private static String flow() {
        long[] f = WhatIf.flow();
        return "<FLOW ARRIVALS='" + f[0] + "' ARRIVAL_NS='" + f[1] + "' DEPARTURES='" + f[2] + "' DEPARTURE_NS='"
                + f[3] + "' IN_FLIGHT='" + f[4] + "' MIN_IN_FLIGHT='" + f[5] + "' VNOW='" + f[6] + "'/>";
    }

    private static int[] ids(Element e, String attr) {
        String v = Xml.attr(e, attr);
        if (v == null || v.isBlank()) {
            return new int[0];
        }
        String[] parts = v.split(",");
        int[] ids = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            ids[i] = number(parts[i].trim(), attr, 0, WhatIf.MAX_PROGRESS_ID - 1);
        }
        return ids;
    }

    private static int number(String v, String attr, int min, int max) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // the message below
        }
        throw new IllegalArgumentException("WHATIF " + attr + " is a whole number from " + min + " to " + max
                + ", not '" + v + "'");
    }
}
