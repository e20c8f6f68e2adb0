/**
 * Target programs with planted, exactly known behaviour for Dyper's end-to-end tests. Nothing here
 * depends on Dyper: these are the programs Dyper measures.
 *
 * <ul>
 *   <li>{@link org.dyper.samples.bank.BankApp}: a multi-threaded bank; its exact call counts and
 *       results are in {@link org.dyper.samples.bank.BankFacts}.</li>
 *   <li>{@link org.dyper.samples.fixture.Fixture}: a tiny single-threaded script for the generator's
 *       weaving tests; its exact calls and return values are listed in its javadoc.</li>
 * </ul>
 */
package org.dyper.samples;
