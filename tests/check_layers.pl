#!/usr/bin/perl
# The structure's rules, checked on the source tree (TAP, run by prove):
#  1. includes run downward: each folder includes only itself and the
#     folders below it (docs/ARCHITECTURE.md), never sideways;
#  2. no include cycles between files;
#  3. no source file over 500 lines, no function over 100;
#  4. no file outside a family's own files reads a family's fields: the
#     family's header (gen/F.h) is included only by F's files (gen/F*,
#     cli/F*), and the public problem's fields (rows, cols, ...) are read
#     only there;
#  5. helpers written once: the clock, dynamic loading, temporary files.
# Run from the repository root: perl tests/check_layers.pl
use strict;
use warnings;

my %rank = (include => 0, base => 1, gen => 2, search => 2, runtime => 3,
            cli => 4);
my @files = sort grep { -f } map { glob "$_/*.[ch]" } sort keys %rank;
my (%inc, @bad_layer, @big, @long, @fields, @twice);

sub folder { my ($p) = @_; $p =~ m{^([^/]+)/} ? $1 : '' }

# The quoted include's path in the tree, or undef (a system header).
sub resolve {
    my ($from, $name) = @_;
    $name =~ s{^\.\./}{};
    return "include/$name" if -f "include/$name";
    return $name if $name =~ m{/} && -f $name;
    my $dir = folder($from);
    return "$dir/$name" if -f "$dir/$name";
    return undef;
}

# Families: at_family_NAME in the table; each family's files.
my @families;
open my $ft, '<', 'gen/family.c' or die "gen/family.c: $!";
while (<$ft>) { push @families, $1 if /^extern const at_family at_family_(\w+);/ }
close $ft;
# The family a spec file makes at run time (gen/spec_family.c) has its
# files too.
push @families, 'spec';
sub family_of {
    my ($f) = @_;
    for my $fam (@families) {
        return $fam if $f =~ m{^(gen|cli)/\Q$fam\E[_.]};
    }
    return undef;
}

# The public problem's fields a family reads (not family, type, options).
my @api_fields;
{
    open my $h, '<', 'include/autotune.h' or die $!;
    my $in = 0;
    while (<$h>) {
        $in = 1 if /typedef struct autotune_problem \{/;
        last if $in && /\}/;
        push @api_fields, /(\w+)[,;]/g if $in && /^\s+int64_t/;
    }
}
my $field_re = join '|', @api_fields;

my %once = ('clock_gettime' => 'base/clock.c', 'dlopen' => 'base/dl.c',
            'mkstemp' => 'base/safefile.c', 'rename' => 'base/safefile.c');

for my $f (@files) {
    open my $fh, '<', $f or die "$f: $!";
    my @lines = <$fh>;
    close $fh;
    push @big, sprintf("%s: %d lines", $f, scalar @lines) if @lines > 500;
    my ($start, $name, $comment) = (0, '', 0);
    my $fam = family_of($f);
    for my $i (0 .. $#lines) {
        my $l = $lines[$i];
        if ($l =~ /^#include "([^"]+)"/) {
            my $to = resolve($f, $1);
            if (!defined $to) {
                push @bad_layer, "$f: \"$1\" not found in the tree";
                next;
            }
            push @{$inc{$f}}, $to;
            my ($a, $b) = (folder($f), folder($to));
            push @bad_layer, "$f includes $to" if $a ne $b &&
                !(exists $rank{$b} && $rank{$b} < $rank{$a});
            if ($to =~ m{^gen/(\w+)\.h$} && grep { $_ eq $1 } @families) {
                push @fields, "$f includes the family header $to"
                    unless defined $fam && $fam eq $1;
            }
        }
        $name = $1 if $l =~ /^\S.*?\b(\w+)\(/ && $l !~ /^[#\/ ]/;
        $start = $i if $l =~ /^\{\s*$/;
        if ($l =~ /^\}\s*$/ && $start) {
            my $n = $i - $start + 1;
            push @long, "$f: $name, $n lines" if $n > 100;
            $start = 0;
        }
        # The code of the line: comments and strings left out.
        my $code = $l;
        if ($comment) {
            next unless $code =~ s{^.*?\*/}{};
            $comment = 0;
        }
        $code =~ s{/\*.*?\*/|//.*|"(?:\\.|[^"\\])*"}{}g;
        $comment = 1 if $code =~ s{/\*.*$}{};
        if (!defined $fam && $f ne 'include/autotune.h' &&
            $code =~ /(?:\.|->)($field_re)\b/) {
            push @fields, sprintf("%s:%d: .%s", $f, $i + 1, $1);
        }
        for my $fn (keys %once) {
            push @twice, sprintf("%s:%d: %s (belongs in %s)", $f, $i + 1,
                                 $fn, $once{$fn})
                if $code =~ /\b\Q$fn\E\s*\(/ && $f ne $once{$fn};
        }
    }
}

# Cycles: a depth-first walk of the include graph.
my (%state, @cycles);
sub visit {
    my ($f, @path) = @_;
    return if ($state{$f} // 0) == 2;
    if (($state{$f} // 0) == 1) {
        push @cycles, join(' -> ', @path, $f);
        return;
    }
    $state{$f} = 1;
    visit($_, @path, $f) for @{$inc{$f} // []};
    $state{$f} = 2;
}
visit($_) for @files;

my @checks = (
    ['includes run downward (include < base < gen, search < runtime < cli)', \@bad_layer],
    ['no include cycles', \@cycles],
    ['no source file over 500 lines', \@big],
    ['no function over 100 lines', \@long],
    ['family fields read only in the family\'s files', \@fields],
    ['clock, dynamic loading and temporary files written once', \@twice],
);
printf "1..%d\n", scalar @checks;
my $n = 0;
for my $c (@checks) {
    my ($what, $found) = @$c;
    ++$n;
    print @$found ? "not ok $n - $what\n" : "ok $n - $what\n";
    print "# $_\n" for @$found;
}
printf "# %d files in %d layers, %d families (%s)\n", scalar @files,
    scalar keys %rank, scalar @families, join(', ', @families);
