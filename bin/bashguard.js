#!/usr/bin/env node
import { main } from '../dist/bashguard.js';

main();
