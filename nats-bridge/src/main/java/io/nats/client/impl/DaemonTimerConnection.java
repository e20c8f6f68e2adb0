package io.nats.client.impl;

import io.nats.client.Connection;
import io.nats.client.Options;
import java.lang.reflect.Field;
import java.util.Timer;
import java.util.TimerTask;

/**
 * Opens a jnats connection whose ping and clean-up timer runs on a daemon thread. jnats 2.20.5 starts that timer with
 * {@code new Timer("Nats Connection Timer")}, a thread that is not a daemon: in a monitored program it would keep the
 * JVM alive after {@code main} returned. The timer is created only while the connection's field is still null, so this
 * sets it first (in jnats' package, loaded by the same class loader, to reach its package-private constructor and
 * tasks) and schedules the same two tasks jnats would: the client's ping and the clean-up of timed-out requests.
 */
public final class DaemonTimerConnection {
    private DaemonTimerConnection() {
    }

    /**
     * Connects with {@code options} (retrying as they say when {@code reconnectOnConnect}) and returns the connection;
     * the timer, a daemon named {@code timerName}, is cancelled when the connection closes.
     */
    public static Connection connect(Options options, boolean reconnectOnConnect, String timerName)
            throws Exception {
        NatsConnection c = new NatsConnection(options);
        Timer timer = new Timer(timerName, true);
        Field field = NatsConnection.class.getDeclaredField("timer");
        field.setAccessible(true);
        field.set(c, timer);
        long ping = options.getPingInterval().toMillis();
        if (ping > 0) {
            timer.schedule(new TimerTask() {
                @Override
                public void run() {
                    try {
                        if (c.isConnected()) {
                            c.softPing();
                        }
                    } catch (Exception ignored) {
                        // as jnats' own task: the next ping tries again, missed pongs start a reconnect
                    }
                }
            }, ping, ping);
        }
        long cleanup = options.getRequestCleanupInterval().toMillis();
        if (cleanup > 0) {
            timer.schedule(new TimerTask() {
                @Override
                public void run() {
                    c.cleanResponses(false);
                }
            }, cleanup, cleanup);
        }
        try {
            c.connect(reconnectOnConnect);
        } catch (Exception | Error e) {
            timer.cancel();
            throw e;
        }
        return c;
    }
}
