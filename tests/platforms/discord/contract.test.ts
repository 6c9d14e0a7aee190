import { adapterContract } from '../../contract/adapter-contract.js';
import { discordContractHarness } from './harness.js';

adapterContract('discord', discordContractHarness, { limitable: true });
