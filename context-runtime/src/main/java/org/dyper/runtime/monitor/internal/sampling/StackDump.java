package org.dyper.runtime.monitor.internal.sampling;

import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dyper.runtime.wire.Xml;

/**
 * SHOWSTACK's {@code <THREADS>}: every sampled thread with its JVM state, what it really does ({@code ACTIVITY}:
 * a RUNNABLE thread blocked in native code is NATIVE) and its frames, woven methods shown as the user wrote them
 * (AspectJ's {@code m_aroundBodyN} is {@code m}, its advice frames are left out).
 */
final class StackDump {
    private StackDump() {
    }

    static String xml(ThreadInfo[] infos, ThreadStates states) {
        List<ThreadInfo> list = new ArrayList<>(List.of(infos));
        list.sort(Comparator.comparingLong(ThreadInfo::getThreadId));
        StringBuilder x = new StringBuilder(16384).append("<THREADS>");
        for (ThreadInfo i : list) {
            x.append("<THREAD ID='").append(i.getThreadId()).append("' NAME='").append(Xml.esc(i.getThreadName()))
                    .append("' STATE='").append(i.getThreadState()).append("' ACTIVITY='").append(states.peek(i))
                    .append("' DAEMON='").append(i.isDaemon()).append("' PRIORITY='").append(i.getPriority())
                    .append('\'');
            if (i.getLockName() != null) {
                x.append(" LOCK='").append(Xml.esc(i.getLockName())).append('\'');
            }
            if (i.getLockOwnerName() != null) {
                x.append(" LOCK_OWNER='").append(Xml.esc(i.getLockOwnerName())).append("' LOCK_OWNER_ID='")
                        .append(i.getLockOwnerId()).append('\'');
            }
            x.append('>');
            List<Frame> frames = new ArrayList<>();
            for (StackTraceElement e : i.getStackTrace()) {
                frames.add(Frame.of(e));
            }
            for (Frame f : FrameNames.clean(frames)) {
                x.append("<STACK CLASS='").append(Xml.esc(f.className())).append("' METHOD='")
                        .append(Xml.esc(f.method())).append("' LINE='").append(f.line()).append('\'');
                if (f.file() != null) {
                    x.append(" FILE='").append(Xml.esc(f.file())).append('\'');
                }
                if (f.nativeMethod()) {
                    x.append(" NATIVE='true'");
                }
                x.append("/>");
            }
            x.append("</THREAD>");
        }
        return x.append("</THREADS>").toString();
    }
}
