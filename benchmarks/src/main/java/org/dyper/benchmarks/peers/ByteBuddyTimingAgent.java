package org.dyper.benchmarks.peers;

import static net.bytebuddy.matcher.ElementMatchers.named;

import java.lang.instrument.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * The Byte Buddy peer: an {@code Advice} timing agent, the technique of the OpenTelemetry Java agent. The advice is
 * inlined into the monitored method; the exit advice records into {@link PeerStats} keyed by the method's name (a
 * constant string).
 */
public final class ByteBuddyTimingAgent {
    private ByteBuddyTimingAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        new AgentBuilder.Default()
                .type(named("org.dyper.benchmarks.app.MonitoredClass"))
                .transform((builder, type, loader, module, domain) ->
                        builder.visit(Advice.to(TimingAdvice.class).on(named("monitoredMethod"))))
                .installOn(inst);
    }

    /** Inlined into the monitored method. */
    public static final class TimingAdvice {
        private TimingAdvice() {
        }

        @Advice.OnMethodEnter
        public static long enter() {
            return System.nanoTime();
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        public static void exit(@Advice.Enter long start, @Advice.Origin("#t.#m#d") String method) {
            PeerStats.time(method, System.nanoTime() - start);
        }
    }
}
