#!/usr/bin/perl
# Sieve of Eratosthenes up to N; the last stdout line is a JSON object of numbers, so the lab
# records its keys as user_<key> columns (user_primes, user_limit).
use strict;
use warnings;

my $limit = $ARGV[0] // 1000000;
my @composite = (0) x ($limit + 1);
my $count = 0;
for my $n (2 .. $limit) {
  next if $composite[$n];
  $count++;
  for (my $m = $n * $n; $m <= $limit; $m += $n) { $composite[$m] = 1; }
}
print "{\"primes\": $count, \"limit\": $limit}\n";
