#!/bin/sh
# generate-manual.sh — regenerates man/mlib-commands.1, the command reference, from the code: every
# command's --help (abstract, discussion, examples, exit statuses, options) through swift-argument-parser's
# generate-manual plugin (offline: the plugin ships with the ArgumentParser checkout). mlib(1) is written by
# hand (concepts, schemas, queries); HelpAndManualTests holds both pages to the code. Run it after changing
# a command's options or help, and commit the result.
set -eu
cd "$(dirname "$0")/.."
swift package --disable-sandbox plugin generate-manual --configuration debug >/dev/null
generated=.build/plugins/GenerateManual/outputs/mlib/mlib.1
# Its own name (mlib.1 is the hand-written page); dated by the last commit of the commands, so the page
# changes only when the help does; blank lines of the help texts as paragraph breaks (mdoc warns on them).
date=$(git log -1 --format=%cd --date=format:'%B %-d, %Y' -- Sources/mlib)
sed -e 's/^\.Dt MLIB 1$/.Dt MLIB-COMMANDS 1/' \
    -e "s/^\.Dd .*\$/.Dd $date/" \
    -e 's/^$/.Pp/' \
    -e 's/^\.Nd "\(.*\)"$/.Nd "\1 Command reference generated from --help; see mlib(1) for the concepts."/' \
    "$generated" > man/mlib-commands.1
echo "wrote man/mlib-commands.1"
