/**
 * Target programs with planted, exactly known behaviour for Dyper's end-to-end tests. Nothing here
 * depends on Dyper: these are the programs Dyper measures.
 *
 * <ul>
 *   <li>{@link org.dyper.samples.bank.BankApp}: a multi-threaded bank; its exact call counts and
 *       results are in {@link org.dyper.samples.bank.BankFacts}.</li>
 *   <li>{@link org.dyper.samples.contention.ContentionApp}: a planted contended lock ({@code Ledger.post}) and an
 *       uncontended one; exact numbers in {@link org.dyper.samples.contention.ContentionFacts}.</li>
 *   <li>{@link org.dyper.samples.alloc.AllocationApp}: planted allocations of objects, {@code int[]} and
 *       {@code String[][]} at distinct sites; exact numbers in {@link org.dyper.samples.alloc.AllocationFacts}.</li>
 *   <li>{@link org.dyper.samples.unsafe.UnsafeCounterApp}: a shared field written under its lock and, at a planted
 *       site, without it; exact numbers in {@link org.dyper.samples.unsafe.UnsafeCounterFacts}.</li>
 *   <li>{@link org.dyper.samples.fixture.Fixture}: a tiny single-threaded script for the generator's
 *       weaving tests; its exact calls and return values are listed in its javadoc.</li>
 * </ul>
 */
package org.dyper.samples;
