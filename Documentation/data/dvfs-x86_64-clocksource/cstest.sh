#!/bin/sh
# EXPERIMENT: which clocksource, and why.
echo "@@@ cs-avail $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource)"
echo "@@@ cs-current $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
dmesg | grep -i -E 'tsc|clocksource|hpet|calibrat' | while read -r l; do echo "@@@ dmesg $l"; done
sleep 5
echo "@@@ cs-current-after5s $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
